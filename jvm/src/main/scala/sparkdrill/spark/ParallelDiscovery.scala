package sparkdrill.spark

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.types.StructType
import org.apache.spark.util.SerializableConfiguration

import sparkdrill.reader.ReaderOptions
import sparkdrill.scan.{ScanFile, ScanOptions, SchemaDiscovery}

/** Runs the discovery pass in parallel when there are many files (option `discoveryParallelism`, the file
  * count from which it does): local files on the driver's planning threads, others as a Spark job, so
  * that thousands of headers are read at once. Results come back in file order; a job's task sends its
  * distinct schemas and an index per file (a tree's files share a few schemas), not a copy per file.
  */
private[spark] object ParallelDiscovery {
  def apply(session: SparkSession): SchemaDiscovery.Many =
    (files: IndexedSeq[ScanFile], options: ReaderOptions, conf: Configuration) => {
      val threshold = options(ScanOptions.DiscoveryParallelism)
      if (files.size < threshold) SchemaDiscovery.locally(files, options, conf)
      else if (SchemaDiscovery.allLocal(files, conf)) SchemaDiscovery.onDriverThreads(files, options, conf)
      else {
        val sc = session.sparkContext
        val shared = sc.broadcast(new SerializableConfiguration(conf))
        try {
          val slices = math.max(1, math.min(files.size, sc.defaultParallelism * 4))
          sc.setJobDescription(s"spark-drill: discover the schemas of ${files.size} files")
          val parts = sc
            .parallelize(files, slices)
            .mapPartitions(part =>
              Iterator(Distinct.of(part.map(SchemaDiscovery.discover(_, options, shared.value.value))))
            )
            .collect()
          parts.toIndexedSeq.flatMap(_.expand)
        } finally {
          sc.setJobDescription(null)
          shared.destroy()
        }
      }
    }
}

/** A task's schemas: the distinct ones, and for each file the index of its schema (-1: None). */
private final case class Distinct(schemas: Array[StructType], indexes: Array[Int]) {
  def expand: IndexedSeq[Option[StructType]] =
    indexes.toIndexedSeq.map(i => if (i < 0) None else Some(schemas(i)))
}

private object Distinct {
  def of(found: Iterator[Option[StructType]]): Distinct = {
    val seen = scala.collection.mutable.LinkedHashMap.empty[StructType, Int]
    val indexes = found.map {
      case None => -1
      case Some(s) => seen.getOrElseUpdate(s, seen.size)
    }.toArray
    Distinct(seen.keys.toArray, indexes)
  }
}
