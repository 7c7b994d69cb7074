package sparkdrill.loader.bench

import org.apache.spark.sql.execution.vectorized.OffHeapColumnVector
import org.apache.spark.sql.types._

import sparkdrill.loader.{ColumnWriter, LoaderOptions, ProjectionFilter, ResultSetLoaders}

/** Rows per second writing 10 int + 10 string columns through the loader, against writing the same values
  * by hand into OffHeapColumnVectors, in one JVM: warm-up, then the median of several runs each.
  * Run: dev/sbt "Test/runMain sparkdrill.loader.bench.LoaderBench"
  */
object LoaderBench {
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

  private def direct(): Long = {
    val vecs = schema.fields.map(f => new OffHeapColumnVector(BatchRows, f.dataType))
    var row = 0
    var r = 0
    var check = 0L
    while (r < Rows) {
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
        vecs.foreach(_.reset())
        row = 0
      }
    }
    vecs.foreach(_.close())
    check
  }

  private def loader(): Long = {
    val l = ResultSetLoaders.create(LoaderOptions(batchRows = BatchRows), schema, ProjectionFilter.All)
    val w = l.writer
    val cols: Array[ColumnWriter] = Array.tabulate(Ints + Strings)(w.column)
    var r = 0
    var check = 0L
    while (r < Rows) {
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
      }
    }
    l.harvest()
    l.close()
    check
  }

  private def rowsPerSecond(f: () => Long): Double = {
    val t0 = System.nanoTime()
    val check = f()
    val t = System.nanoTime() - t0
    if (check == 42) println("") // keeps the result alive
    Rows / (t / 1e9)
  }

  private def median(xs: Seq[Double]): Double = xs.sorted.apply(xs.size / 2)

  def main(args: Array[String]): Unit = {
    val runs = if (args.nonEmpty) args(0).toInt else 9
    for (_ <- 0 until 5) { rowsPerSecond(() => direct()); rowsPerSecond(() => loader()) }
    // Interleaved, so both sides see the same machine load.
    val (d, l) = (0 until runs).map(_ => (rowsPerSecond(() => direct()), rowsPerSecond(() => loader()))).unzip
    val (md, ml) = (median(d), median(l))
    println(f"direct OffHeapColumnVector: ${md / 1e6}%.2f M rows/s (median of $runs)")
    println(f"ResultSetLoader:            ${ml / 1e6}%.2f M rows/s (median of $runs)")
    println(f"loader overhead:            ${(md / ml - 1) * 100}%.1f %% (time per row, loader vs direct)")
  }
}
