package sparkdrill.loader.bench

import java.lang.management.ManagementFactory
import java.nio.file.{Files, Paths}

import org.apache.spark.sql.execution.vectorized.OffHeapColumnVector
import org.apache.spark.sql.types._
import org.apache.spark.sql.vectorized.ColumnVector

import sparkdrill.loader.{ColumnWriter, LoaderOptions, ProjectionFilter, ResultSetLoaders}

/** Rows per second writing 10 int + 10 string columns through the loader, against writing the same values
  * by hand into OffHeapColumnVectors, in one JVM. Both sides write the same values into batches of the
  * same size, reset their vectors before each batch, and write no nulls (so neither needs `putNotNull`:
  * reset vectors have their null flags clear). Before timing, the first batch of each side is compared
  * value by value.
  *
  * Warm-up pairs, then `runs` timed pairs; the order inside a pair alternates so that neither side always
  * runs just after the other's garbage. Reported, by the writing thread's CPU time and by wall-clock time:
  * each side's median rows/s with min-max, and the overhead of each pair (loader time / direct time - 1)
  * as median and min-max. The overhead per pair is the figure to quote: both halves of a pair see about
  * the same machine load.
  *
  * Run: `make bench-loader` or `dev/sbt "Test/runMain sparkdrill.loader.bench.LoaderBench [runs] [warmup]"`.
  */
object LoaderBench {
  private final case class Timing(wall: Double, cpu: Double)

  private val Ints = 10
  private val Strings = 10
  private val BatchRows = 4096
  private val Rows = 2000000
  private val schema = StructType(
    (0 until Ints).map(i => StructField(s"i$i", IntegerType)) ++
      (0 until Strings).map(i => StructField(s"s$i", StringType))
  )

  // Values prepared up front so both sides only copy them.
  private val intValues = Array.tabulate(1 << 16)(i => i * 31 + 7)
  private val strValues = Array.tabulate(1024)(i => s"value-${i * 7919}-${"x" * (i % 12)}".getBytes("UTF-8"))

  /** Writes `rows` rows by hand; `onBatch` sees each full batch (and the last partial one) before reset. */
  private def direct(rows: Int, onBatch: (Array[ColumnVector], Int) => Unit): Long = {
    val vecs = schema.fields.map(f => new OffHeapColumnVector(BatchRows, f.dataType))
    var row = 0
    var r = 0
    var check = 0L
    try {
      while (r < rows) {
        var c = 0
        while (c < Ints) { vecs(c).putInt(row, intValues((r + c) & 0xffff)); c += 1 }
        while (c < Ints + Strings) {
          val b = strValues((r + c) & 1023)
          vecs(c).putByteArray(row, b, 0, b.length)
          c += 1
        }
        row += 1
        r += 1
        if (row == BatchRows) {
          check += vecs(0).getInt(row - 1)
          if (onBatch != null) onBatch(vecs.toArray[ColumnVector], row)
          vecs.foreach(_.reset())
          row = 0
        }
      }
      if (row > 0 && onBatch != null) onBatch(vecs.toArray[ColumnVector], row)
    } finally vecs.foreach(_.close())
    check
  }

  private def loader(rows: Int, onBatch: (Array[ColumnVector], Int) => Unit): Long = {
    val l = ResultSetLoaders.create(LoaderOptions(batchRows = BatchRows), schema, ProjectionFilter.All)
    val w = l.writer
    val cols: Array[ColumnWriter] = Array.tabulate(Ints + Strings)(w.column)
    var r = 0
    var check = 0L
    try {
      while (r < rows) {
        w.start()
        var c = 0
        while (c < Ints) { cols(c).setInt(intValues((r + c) & 0xffff)); c += 1 }
        while (c < Ints + Strings) {
          val b = strValues((r + c) & 1023)
          cols(c).setBytes(b, 0, b.length)
          c += 1
        }
        w.save()
        r += 1
        if (w.isFull) {
          val batch = l.harvest()
          check += batch.column(0).getInt(batch.numRows - 1)
          if (onBatch != null) onBatch(Array.tabulate(batch.numCols)(batch.column), batch.numRows)
        }
      }
      val last = l.harvest()
      if (last.numRows > 0 && onBatch != null)
        onBatch(Array.tabulate(last.numCols)(last.column), last.numRows)
    } finally l.close()
    check
  }

  /** Every batch of both sides, rendered, must be equal: the two sides write the same values. */
  private def checkSameValues(): Unit = {
    def render(side: (Int, (Array[ColumnVector], Int) => Unit) => Long): Vector[String] = {
      val out = Vector.newBuilder[String]
      side(
        3 * BatchRows + 17,
        (cols, n) => {
          val sb = new StringBuilder
          var r = 0
          while (r < n) {
            cols.indices.foreach { c =>
              val v = cols(c)
              if (v.isNullAt(r)) sb.append("null")
              else if (c < Ints) sb.append(v.getInt(r))
              else sb.append(v.getUTF8String(r).toString)
              sb.append('|')
            }
            r += 1
          }
          out += s"$n:$sb"
        }
      )
      out.result()
    }
    val (d, l) = (render(direct), render(loader))
    if (d != l) throw new IllegalStateException("the loader and the direct write produced different batches")
  }

  private val threads = ManagementFactory.getThreadMXBean

  /** Wall-clock and CPU seconds of the calling thread. On a shared machine the CPU time leaves out the
    * time spent waiting for a core, so it is the steadier of the two.
    */
  private def seconds(f: => Long): Timing = {
    val c0 = threads.getCurrentThreadCpuTime
    val t0 = System.nanoTime()
    val check = f
    val t = System.nanoTime() - t0
    val c = threads.getCurrentThreadCpuTime - c0
    if (check == 42) println("") // keeps the result alive
    Timing(t / 1e9, c / 1e9)
  }

  private def median(xs: Seq[Double]): Double = {
    val s = xs.sorted
    if (s.size % 2 == 1) s(s.size / 2) else (s(s.size / 2 - 1) + s(s.size / 2)) / 2
  }

  private def load(): String =
    try new String(Files.readAllBytes(Paths.get("/proc/loadavg"))).split(' ').take(3).mkString(" ")
    catch { case _: Exception => "unknown" }

  def main(args: Array[String]): Unit = {
    val runs = if (args.nonEmpty) args(0).toInt else 15
    val warmup = if (args.length > 1) args(1).toInt else 8
    checkSameValues()
    println(s"load average before: ${load()} (${Runtime.getRuntime.availableProcessors} cpus)")
    def pair(i: Int): (Timing, Timing) =
      if (i % 2 == 0) { val d = seconds(direct(Rows, null)); (d, seconds(loader(Rows, null))) }
      else { val l = seconds(loader(Rows, null)); (seconds(direct(Rows, null)), l) }
    (0 until warmup).foreach(pair)
    val pairs = (0 until runs).map(pair)
    def report(what: String, time: Timing => Double): Unit = {
      val (d, l) = pairs.map { case (td, tl) => (time(td), time(tl)) }.unzip
      val overhead = d.zip(l).map { case (td, tl) => (tl / td - 1) * 100 }
      def rate(ts: Seq[Double]): String = {
        val rs = ts.map(t => Rows / t / 1e6)
        f"${median(rs)}%.2f M rows/s (min ${rs.min}%.2f, max ${rs.max}%.2f)"
      }
      println(s"$what:")
      println(s"  direct OffHeapColumnVector: ${rate(d)}")
      println(s"  ResultSetLoader:            ${rate(l)}")
      println(
        f"  loader overhead:            ${median(overhead)}%.1f %% median of $runs pairs " +
          f"(min ${overhead.min}%.1f, max ${overhead.max}%.1f; time per row, loader vs direct)"
      )
    }
    report("CPU time of the writing thread", _.cpu)
    report("wall-clock time", _.wall)
    println(s"load average after: ${load()}")
  }
}
