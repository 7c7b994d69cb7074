package sparkdrill.loader.bench

import java.lang.management.ManagementFactory
import java.nio.file.{Files, Paths}

import org.apache.spark.sql.execution.vectorized.OffHeapColumnVector
import org.apache.spark.sql.types._
import org.apache.spark.sql.vectorized.ColumnVector

import sparkdrill.loader.{ColumnWriter, LoaderOptions, ProjectionFilter, ResultSetLoaders, RowWriter}

/** Rows per second writing 10 int + 10 string columns through the loader, against writing the same values
  * by hand into OffHeapColumnVectors, in one JVM. Both sides write the same values into batches of the
  * same size, reset their vectors before each batch, and write no nulls (so neither needs `putNotNull`:
  * reset vectors have their null flags clear). Before timing, the first batch of each side is compared
  * value by value.
  *
  * Each fork (a fresh JVM, as JMH does: the JIT compiles differently from one JVM to the next, and a single
  * JVM's figure can be off by a third) runs warm-up pairs, then timed pairs; the order inside a pair
  * alternates so that neither side always runs just after the other's garbage. Reported, by the writing
  * thread's CPU time and by wall-clock time: each side's median rows/s with min-max, and the overhead of
  * each pair (loader time / direct time - 1) as the median over all pairs, its min-max, and the range of
  * the forks' medians. The CPU-time overhead is the figure to quote: both halves of a pair see about the
  * same machine load, and CPU time leaves out the waits for a core on a shared machine.
  *
  * Run: `make bench-loader` or
  * `dev/sbt "loaderBench/runMain sparkdrill.loader.bench.LoaderBench [pairs=10] [warmup=6] [forks=5]"`.
  */
object LoaderBench {
  private final case class Timing(wall: Double, cpu: Double)

  // The issue's mix; `-Dbench.ints=N -Dbench.strings=M` (a JVM option, which
  // forks inherit) looks at one kind alone.
  private val Ints = sys.props.getOrElse("bench.ints", "10").toInt
  private val Strings = sys.props.getOrElse("bench.strings", "10").toInt
  private val BatchRows = 4096
  private val Rows = 2000000
  private val schema = StructType(
    (0 until Ints).map(i => StructField(s"i$i", IntegerType)) ++
      (0 until Strings).map(i => StructField(s"s$i", StringType))
  )

  // Values prepared up front so both sides only copy them.
  private val intValues = Array.tabulate(1 << 16)(i => i * 31 + 7)
  private val strValues = Array.tabulate(1024)(i => s"value-${i * 7919}-${"x" * (i % 12)}".getBytes("UTF-8"))

  // Each side fills one batch per call, so the JIT compiles the per-batch method as a whole (a method called
  // hundreds of times per run) rather than only on-stack-replacing a long loop, which made the code, and the
  // figures, differ from one JVM to the next.

  /** Writes rows `r0` until `rows` by hand into `vecs`, at most one batch; returns the rows written. */
  private def directBatch(vecs: Array[OffHeapColumnVector], r0: Int, rows: Int): Int = {
    val n = math.min(BatchRows, rows - r0)
    var row = 0
    while (row < n) {
      val r = r0 + row
      var c = 0
      while (c < Ints) { vecs(c).putInt(row, intValues((r + c) & 0xffff)); c += 1 }
      while (c < Ints + Strings) {
        val b = strValues((r + c) & 1023)
        vecs(c).putByteArray(row, b, 0, b.length)
        c += 1
      }
      row += 1
    }
    n
  }

  /** Writes `rows` rows by hand; `onBatch` sees each batch before the vectors are reset for the next. */
  private def direct(rows: Int, onBatch: (Array[ColumnVector], Int) => Unit): Long = {
    val vecs = schema.fields.map(f => new OffHeapColumnVector(BatchRows, f.dataType))
    var r = 0
    var check = 0L
    try
      while (r < rows) {
        val n = directBatch(vecs, r, rows)
        r += n
        check += (if (Ints > 0) vecs(0).getInt(n - 1) else vecs(0).getUTF8String(n - 1).numBytes)
        if (onBatch != null) onBatch(vecs.toArray[ColumnVector], n)
        if (r < rows) vecs.foreach(_.reset())
      }
    finally vecs.foreach(_.close())
    check
  }

  /** Writes rows from `r0` through the loader until the batch is full or `rows` are written; returns the
    * rows written.
    */
  private def loaderBatch(w: RowWriter, cols: Array[ColumnWriter], r0: Int, rows: Int): Int = {
    var r = r0
    while ({
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
      r < rows && !w.isFull
    }) ()
    r - r0
  }

  private def loader(rows: Int, onBatch: (Array[ColumnVector], Int) => Unit): Long = {
    val l = ResultSetLoaders.create(LoaderOptions(batchRows = BatchRows), schema, ProjectionFilter.All)
    val w = l.writer
    val cols: Array[ColumnWriter] = Array.tabulate(Ints + Strings)(w.column)
    var r = 0
    var check = 0L
    try
      while (r < rows) {
        r += loaderBatch(w, cols, r, rows)
        val batch = l.harvest()
        check += (if (Ints > 0) batch.column(0).getInt(batch.numRows - 1)
                  else batch.column(0).getUTF8String(batch.numRows - 1).numBytes)
        if (onBatch != null) onBatch(Array.tabulate(batch.numCols)(batch.column), batch.numRows)
      }
    finally l.close()
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

  /** Timed pairs in this JVM: (direct, loader), after `warmup` pairs. */
  private def measure(pairs: Int, warmup: Int): Seq[(Timing, Timing)] = {
    def pair(i: Int): (Timing, Timing) =
      if (i % 2 == 0) { val d = seconds(direct(Rows, null)); (d, seconds(loader(Rows, null))) }
      else { val l = seconds(loader(Rows, null)); (seconds(direct(Rows, null)), l) }
    (0 until warmup).foreach(pair)
    (0 until pairs).map(pair)
  }

  /** The JIT flag every fork gets: the direct side's string copy (`Platform.copyMemory`, reached through
    * `putByteArray`) is inlined into its caller. Left to itself the JIT inlines it in some JVMs and not in
    * others (it depends on whether the copy was compiled on its own first), and the direct side is then up
    * to a fifth slower: the flag keeps the baseline at its faster form. The loader copies values
    * of up to 32 bytes itself (all of this benchmark's), so the flag speeds only the direct side.
    */
  val ForkJitFlags: Seq[String] = Seq("-XX:CompileCommand=inline,org/apache/spark/unsafe/Platform.copyMemory")

  /** Runs the measurement in a fresh JVM (same JVM options and classpath, plus [[ForkJitFlags]]). */
  private def fork(pairs: Int, warmup: Int): Seq[(Timing, Timing)] = {
    import scala.jdk.CollectionConverters._
    val java = Paths.get(System.getProperty("java.home"), "bin", "java").toString
    val jvmArgs = ManagementFactory.getRuntimeMXBean.getInputArguments.asScala.toSeq
      .filterNot(a =>
        a.startsWith("-agentlib") || a.startsWith("-javaagent") || a.startsWith("-XX:CompileCommand")
      )
    val command = Seq(java) ++ jvmArgs ++ ForkJitFlags ++
      Seq(
        "-cp",
        System.getProperty("java.class.path"),
        LoaderBench.getClass.getName.stripSuffix("$"),
        "--child",
        s"$pairs",
        s"$warmup"
      )
    val process = new ProcessBuilder(command: _*).redirectErrorStream(true).start()
    val out = scala.io.Source.fromInputStream(process.getInputStream, "UTF-8").getLines().toVector
    if (process.waitFor() != 0) throw new IllegalStateException(s"the fork failed:\n${out.mkString("\n")}")
    out.filter(_.startsWith("pair ")).map { line =>
      val Array(dw, lw, dc, lc) = line.stripPrefix("pair ").split(' ').map(_.toDouble)
      (Timing(dw, dc), Timing(lw, lc))
    }
  }

  /** `LoaderBench [pairs per fork] [warm-up pairs] [forks]`: with 0 forks, measures in this JVM. */
  def main(args: Array[String]): Unit = {
    if (args.headOption.contains("--child")) {
      measure(args(1).toInt, args(2).toInt).foreach { case (d, l) =>
        println(s"pair ${d.wall} ${l.wall} ${d.cpu} ${l.cpu}")
      }
      return
    }
    val runs = if (args.nonEmpty) args(0).toInt else 10
    val warmup = if (args.length > 1) args(1).toInt else 6
    val forks = if (args.length > 2) args(2).toInt else 5
    checkSameValues()
    println(s"load average before: ${load()} (${Runtime.getRuntime.availableProcessors} cpus)")
    def overhead(d: Timing, l: Timing, time: Timing => Double): Double = (time(l) / time(d) - 1) * 100
    val perFork: Seq[Seq[(Timing, Timing)]] =
      if (forks == 0) {
        println(s"$runs timed pairs after $warmup warm-up pairs, in this JVM")
        Seq(measure(runs, warmup))
      } else {
        println(
          s"$forks forks of $runs timed pairs after $warmup warm-up pairs; fork JIT flags: ${ForkJitFlags.mkString(" ")}"
        )
        (1 to forks).map { i =>
          val pairs = fork(runs, warmup)
          val o = median(pairs.map { case (d, l) => overhead(d, l, _.cpu) })
          val rd = median(pairs.map(p => Rows / p._1.cpu / 1e6))
          val rl = median(pairs.map(p => Rows / p._2.cpu / 1e6))
          println(
            f"  fork $i: direct $rd%.2f, loader $rl%.2f M rows/s; loader overhead $o%.1f %% (CPU time, median)"
          )
          pairs
        }
      }
    val pairs = perFork.flatten
    def report(what: String, time: Timing => Double): Unit = {
      val (d, l) = pairs.map { case (td, tl) => (time(td), time(tl)) }.unzip
      val all = pairs.map { case (td, tl) => overhead(td, tl, time) }
      val byFork = perFork.map(ps => median(ps.map { case (td, tl) => overhead(td, tl, time) }))
      def rate(ts: Seq[Double]): String = {
        val rs = ts.map(t => Rows / t / 1e6)
        f"${median(rs)}%.2f M rows/s (min ${rs.min}%.2f, max ${rs.max}%.2f)"
      }
      println(s"$what, ${pairs.size} pairs:")
      println(s"  direct OffHeapColumnVector: ${rate(d)}")
      println(s"  ResultSetLoader:            ${rate(l)}")
      println(
        f"  loader overhead:            ${median(all)}%.1f %% median (min ${all.min}%.1f, max ${all.max}%.1f; " +
          f"fork medians ${byFork.min}%.1f to ${byFork.max}%.1f; time per row, loader vs direct)"
      )
    }
    report("CPU time of the writing thread", _.cpu)
    report("wall-clock time", _.wall)
    println(s"load average after: ${load()}")
  }
}
