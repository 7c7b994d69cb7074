package sparkdrill.bench

import java.lang.management.ManagementFactory
import java.nio.file.{Files, Paths}
import java.time.ZoneOffset

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.types.StructType

import sparkdrill.reader.RowFilter
import sparkdrill.scan.{ScanLifecycle, SplitPlanner, TableScan}

/** A reader's own speed, for comparing two versions of it: one thread reads every file under a directory
  * through the scan (planning once, then `ScanLifecycle` over all files, batches consumed and dropped), as
  * many times as asked, and prints each pass's wall and CPU seconds. No Spark job, scheduler or second
  * core, so two jars differ by their readers alone; bench.run gives the figures that count.
  *
  *   loaderBench/runMain sparkdrill.bench.ReaderBench <dir> <count|all|filter> <passes> [option=value ...]
  *
  * `filter` reads every column with the row filter `quantity = 42` (bench Q6); an option value `@file` is
  * the file's text (a provided schema's DDL). `-Dbench.threads=N` reads the files on N threads in turn.
  */
object ReaderBench {
  def main(args: Array[String]): Unit = {
    val Array(dir, query, passesText) = args.take(3)
    val options = args
      .drop(3)
      .map { kv =>
        val Array(k, v) = kv.split("=", 2)
        k -> (if (v.startsWith("@")) new String(Files.readAllBytes(Paths.get(v.drop(1)))).trim else v)
      }
      .toMap
    val conf = new Configuration()
    val scan = TableScan.open(Seq(dir), TableScan.parseOptions(options), None, conf, ZoneOffset.UTC)
    val required = if (query == "count") new StructType() else scan.schema
    val filter =
      if (query == "filter")
        Some(RowFilter.Compare("quantity", RowFilter.Op.Equal, java.lang.Long.valueOf(42L)))
      else None
    val plan =
      scan.plan(required, Nil, Long.MaxValue, SplitPlanner.Settings(Long.MaxValue / 4, 0L, 1), filter)
    val tasks = plan.tasks.flatten
    val threadCount = sys.props.getOrElse("bench.threads", "1").toInt
    val bean = ManagementFactory.getThreadMXBean
    for (pass <- 1 to passesText.toInt) {
      val wall = System.nanoTime()
      val cpu = new java.util.concurrent.atomic.AtomicLong()
      val rows = new java.util.concurrent.atomic.AtomicLong()
      // Threads take the files in turn, as two executor threads would take tasks.
      val workers = (0 until threadCount).map { t =>
        new Thread(() => {
          val start = bean.getCurrentThreadCpuTime
          val lifecycle =
            new ScanLifecycle(plan.spec, tasks.indices.filter(_ % threadCount == t).map(tasks).toArray, conf)
          try while (lifecycle.next()) rows.addAndGet(lifecycle.batch.numRows.toLong)
          finally lifecycle.close()
          cpu.addAndGet(bean.getCurrentThreadCpuTime - start)
        })
      }
      workers.foreach(_.start())
      workers.foreach(_.join())
      println(
        f"pass $pass: ${rows.get} rows, wall ${(System.nanoTime() - wall) / 1e9}%.3f s, " +
          f"cpu ${cpu.get / 1e9}%.3f s ($threadCount threads)"
      )
    }
  }
}
