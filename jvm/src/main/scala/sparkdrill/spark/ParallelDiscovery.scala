package sparkdrill.spark

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.types.StructType
import org.apache.spark.util.SerializableConfiguration

import sparkdrill.reader.ReaderOptions
import sparkdrill.scan.{ScanFile, ScanOptions, SchemaDiscovery}

/** Runs the discovery pass as a Spark job when there are many files (option `discoveryParallelism`, the
  * file count from which a job is used), so that thousands of headers are read in parallel.
  * Results come back in file order.
  */
private[spark] object ParallelDiscovery {
  def apply(session: SparkSession): SchemaDiscovery.Many =
    (files: IndexedSeq[ScanFile], options: ReaderOptions, conf: Configuration) => {
      val threshold = options(ScanOptions.DiscoveryParallelism)
      if (files.size < threshold) SchemaDiscovery.locally(files, options, conf)
      else {
        val sc = session.sparkContext
        val shared = sc.broadcast(new SerializableConfiguration(conf))
        try {
          val slices = math.max(1, math.min(files.size, sc.defaultParallelism * 4))
          sc.setJobDescription(s"spark-drill: discover the schemas of ${files.size} files")
          val schemas = sc
            .parallelize(files, slices)
            .map(f => SchemaDiscovery.discover(f, options, shared.value.value))
            .collect()
          schemas.toIndexedSeq: IndexedSeq[Option[StructType]]
        } finally {
          sc.setJobDescription(null)
          shared.destroy()
        }
      }
    }
}
