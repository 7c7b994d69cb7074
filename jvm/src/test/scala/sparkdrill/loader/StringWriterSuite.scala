package sparkdrill.loader

import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.loader.testkit.LoaderTestKit._

/** Strings and binary through the writers' fast path (bytes copied into room reserved ahead in the store)
  * and around it: every length and source offset, long values that move the store, the byte limit.
  */
class StringWriterSuite extends AnyFunSuite {
  private val schema = new StructType().add("s", StringType).add("b", BinaryType).add("i", IntegerType)

  /** Writes `values` (bytes for both columns, taken from inside a larger array) and reads every batch. */
  private def roundTrip(options: LoaderOptions, values: Seq[Array[Byte]]): (Seq[Seq[Any]], Seq[Int]) = {
    val l = ResultSetLoaders.create(options, schema, ProjectionFilter.All)
    try
      collectEach(l, values.zipWithIndex) { case (v, r) =>
        val pad = r % 11 // the value sits inside a larger array, at an offset
        val source = Array.fill[Byte](pad)(-1) ++ v ++ Array.fill[Byte](7)(-2)
        l.writer.start()
        l.writer.column(0).setBytes(source, pad, v.length)
        l.writer.column(1).setBytes(source, pad, v.length)
        l.writer.column(2).setInt(r)
        l.writer.save()
      }
    finally l.close()
  }

  private def bytesOf(n: Int, seed: Int): Array[Byte] =
    Array.tabulate(n)(i => ('a' + (i * 7 + seed) % 26).toByte)

  private def expected(values: Seq[Array[Byte]]): Seq[Seq[Any]] =
    values.zipWithIndex.map { case (v, r) => Seq(new String(v, "UTF-8"), v.toSeq, r) }

  private def normalized(out: Seq[Seq[Any]]): Seq[Seq[Any]] = out.map(_.map {
    case a: Array[Byte] => a.toSeq
    case other => other
  })

  test("values of every length from 0 to 80, from any offset of a larger array, arrive byte for byte") {
    val values = (0 until 6000).map(r => bytesOf(r % 81, r)) // about 240 KB a column: the room grows
    for (batchRows <- Seq(64, 4096)) {
      val (out, sizes) = roundTrip(LoaderOptions(batchRows = batchRows), values)
      assert(normalized(out) == expected(values), s"batchRows $batchRows")
      assert(sizes.sum == values.size)
    }
  }

  test("a long value between short ones (the store grows and moves) leaves every value intact") {
    val values = (0 until 3000).map(r => if (r % 700 == 13) bytesOf(200000 + r, r) else bytesOf(r % 29, r))
    val (out, _) = roundTrip(LoaderOptions(batchRows = 1024), values)
    assert(normalized(out) == expected(values))
  }

  test("the byte limit holds for short values too: the row that would cross it starts the next batch") {
    val values = (0 until 500).map(r => bytesOf(20 + r % 13, r))
    val limit = 1000L
    val (out, sizes) = roundTrip(LoaderOptions(batchRows = 4096, batchBytes = limit), values)
    assert(normalized(out) == expected(values)) // every row once, in order
    // Each batch holds as many rows as fit under the limit, and the next row would not have fit.
    var r = 0
    sizes.foreach { n =>
      val bytes = values.slice(r, r + n).map(_.length.toLong).sum
      assert(bytes <= limit, s"batch of rows $r until ${r + n} holds $bytes bytes a column")
      if (r + n < values.size) assert(bytes + values(r + n).length > limit, s"batch at row $r ended early")
      r += n
    }
  }
}
