package sparkdrill.fuzz

import java.nio.file.Path

import org.apache.spark.sql.types.{StructField, StructType}
import org.scalacheck.Gen

import sparkdrill.fuzz.FuzzScan.{Corrupt, Modes, Outcome, Reason, Rows}
import sparkdrill.fuzz.ReferenceCsv.Record
import sparkdrill.tags.Slow

/** The CSV reader under fuzzing (issue 14), through the real scan on real files, in every mode:
  *
  *   - (a) the only errors are the documented ones (a header whose quote is never closed, in every mode; a
  *     record whose quote is never closed, under FAILFAST; a quoted line end on a split boundary), never an
  *     internal exception, a StackOverflowError or an OutOfMemoryError;
  *   - (b) no example runs longer than [[FuzzConfig.timeout]];
  *   - (c) the reads hold exactly the records [[ReferenceCsv]] finds by the documented rules: PERMISSIVE all
  *     of them (a malformed one as nulls with its raw text, cut at `maxRecordTextBytes`), DROPMALFORMED those
  *     that are not malformed, FAILFAST all of them or the error of the malformed one; the same values,
  *     `_line` and `_offset`, and `count(*)` as many; no mutation is left out, since the rules cover every
  *     byte sequence;
  *   - (d) a FAILFAST error names the file, the record's line and its offset;
  *   - (e) under PERMISSIVE any batch size, any split size and a projection read the same rows, except that a
  *     split may fail, with the documented error, exactly when one of its boundaries falls inside a record.
  */
@Slow
class CsvFuzzSuite extends FuzzSuite {
  import CsvFuzzSuite._

  property(
    "valid CSV reads as written: every mode, batch size, split size and projection",
    60,
    example(false)
  ) { e =>
    checkExample(e)
  }

  property(
    "mutated CSV: documented errors only, no hang, the documented records, any batch or split size alike",
    150,
    example(true)
  )(e => checkExample(e))

  private def checkExample(e: Example): Unit = {
    val file = FuzzScan.write(root, "f.csv", e.bytes)
    try {
      val records = ReferenceCsv.records(e.bytes, e.doc.dialect)
      if (e.mutations.isEmpty) checkModel(e, records)
      records.headOption match {
        case Some(header) if header.unterminated => headerFails(e, file, header)
        case header =>
          val width = header.map(_.fields.size).getOrElse(0)
          Modes.foreach(mode => checkMode(e, file, mode, width, records.drop(1)))
          checkPermissiveReads(e, file, records)
      }
    } finally FuzzScan.delete(file)
  }

  // The reference must read a valid file as the generator wrote it; otherwise the test, not the scan, is
  // wrong.
  private def checkModel(e: Example, records: Vector[Record]): Unit = {
    val clue = "the reference splitter disagrees with the generator's model (a bug in the fuzz test)"
    assert(records.nonEmpty && !records.exists(_.unterminated), clue)
    assert(records.head.fields.map(_.text) == e.doc.header, clue)
    val width = e.doc.header.size
    assert(records.tail.map(r => Vector.tabulate(width)(ReferenceCsv.value(r, _))) == e.doc.rows, clue)
  }

  private def headerFails(e: Example, file: Path, header: Record): Unit =
    Modes.foreach { mode =>
      FuzzScan.open(file, e.options(mode)) match {
        case Right(_) => fail(s"$mode: a header whose quote is never closed did not fail the read")
        case Left(err) =>
          FuzzScan.checkError(err, file, Seq(Reason.HeaderQuote), s"$mode, the header")
          assert(
            err.line == header.line && err.offset == header.offset,
            s"$mode: the error names line ${err.line}, offset ${err.offset}; the header is at line ${header.line}, " +
              s"offset ${header.offset}"
          )
      }
    }

  private def checkMode(e: Example, file: Path, mode: String, width: Int, data: Vector[Record]): Unit = {
    val scan = opened(file, e.options(mode), mode)
    val fields = scan.schema.fields.toVector
    assert(
      fields.count(_.name == Corrupt) == 1 && fields.size == width + 1,
      s"$mode: columns ${fields.map(_.name).mkString(", ")} for a header of $width fields"
    )
    if (e.mutations.isEmpty)
      assert(fields.map(_.name).filter(_ != Corrupt) == e.doc.header, s"$mode: columns ${fields.map(_.name)}")
    val expected = if (mode == "DROPMALFORMED") data.filterNot(_.unterminated) else data
    val got = FuzzScan.read(scan, FuzzScan.withPositions(scan))
    data.find(_.unterminated).filter(_ => mode == "FAILFAST") match {
      case Some(bad) =>
        got match {
          case Right(rows) =>
            fail(s"FAILFAST read ${rows.size} rows; the record at line ${bad.line} has a quote never closed")
          case Left(err) =>
            FuzzScan.checkError(err, file, Seq(Reason.UnclosedQuote), "FAILFAST")
            assert(
              err.line == bad.line && err.offset == bad.offset,
              s"FAILFAST: the error names line ${err.line}, offset ${err.offset}; the malformed record is at line " +
                s"${bad.line}, offset ${bad.offset}"
            )
        }
      case None =>
        got match {
          case Left(err) => fail(s"$mode: the read failed: ${err.getMessage}", err)
          case Right(rows) =>
            compareRows(
              mode,
              rows,
              expected.map(expectedRow(e.bytes, fields, _)),
              fields.indexWhere(_.name == Corrupt),
              e
            )
        }
    }
    FuzzScan.assertSameCount(scan, got, mode)
  }

  // The row the documented rules give for a record, in the order of `*` then _line, _offset.
  private def expectedRow(bytes: Array[Byte], fields: Vector[StructField], r: Record): Vector[String] = {
    val values = fields.indices.toVector.map { i =>
      if (fields(i).name == Corrupt) { if (r.unterminated) r.rawText(bytes) else null }
      else if (r.unterminated) null
      else ReferenceCsv.value(r, fields.take(i).count(_.name != Corrupt))
    }
    values ++ Vector(r.line.toString, r.offset.toString)
  }

  private def compareRows(what: String, got: Rows, want: Rows, corrupt: Int, e: Example): Unit = {
    assert(got.size == want.size, s"$what: ${got.size} rows; the documented rules find ${want.size} records")
    got.indices.foreach { r =>
      val (g, w) = (got(r), want(r))
      val same = g.size == w.size && g.indices.forall { i =>
        if (i == corrupt) FuzzScan.capped(g(i), w(i), e.maxText) else g(i) == w(i)
      }
      assert(same, s"$what: row ${r + 1} reads ${show(g)}; the documented rules give ${show(w)}")
    }
  }

  private def checkPermissiveReads(e: Example, file: Path, records: Vector[Record]): Unit = {
    val options = e.options("PERMISSIVE")
    val scan = opened(file, options, "PERMISSIVE")
    val required = FuzzScan.withPositions(scan)
    val whole: Outcome = FuzzScan.read(scan, required)
    val rows = whole.getOrElse(fail(s"PERMISSIVE: the read failed: ${FuzzScan.describe(whole)}"))

    // A projection of one column reads what * reads in it.
    scan.schema.fields.filter(_.name != Corrupt).lastOption.foreach { f =>
      val index = scan.schema.fieldIndex(f.name)
      val projected = FuzzScan.read(scan, StructType(Seq(f)))
      assert(
        FuzzScan.same(projected, Right(rows.map(r => Vector(r(index))))),
        s"PERMISSIVE: column '${f.name}' read alone gives ${FuzzScan.describe(projected)}, not the column of *"
      )
    }

    // Any batch size: the same rows.
    e.batches.foreach { case (batchRows, batchBytes) =>
      val what = s"PERMISSIVE, batchRows=$batchRows, batchBytes=$batchBytes"
      val other =
        opened(file, options ++ Seq("batchRows" -> s"$batchRows", "batchBytes" -> s"$batchBytes"), what)
      val got = FuzzScan.read(other, FuzzScan.withPositions(other))
      assert(FuzzScan.same(got, whole), s"$what: ${FuzzScan.describe(got)}; ${difference(got, rows)}")
    }

    // Any split size: the same rows, or the documented error when a split boundary falls inside a record.
    e.splits.foreach { count =>
      val size = math.max(1L, (e.bytes.length.toLong + count - 1) / count)
      if (size < e.bytes.length) {
        val what =
          s"PERMISSIVE, split into ranges of $size bytes${if (e.oneLifecycle) ", all in one task" else ""}"
        val boundaries = ReferenceCsv.splitStarts(e.bytes, size).drop(1)
        val inside = boundaries.filter(b => records.exists(r => r.offset < b && b < r.end))
        FuzzScan.read(scan, required, Some(size), e.oneLifecycle) match {
          case Left(err) =>
            assert(
              inside.nonEmpty,
              s"$what: the read failed, but no split boundary (${boundaries.mkString(", ")}) falls inside a " +
                s"record: ${err.getMessage}"
            )
            FuzzScan.checkError(err, file, Seq(Reason.SplitLineEnd), what)
            assert(
              inside.contains(err.offset.toInt),
              s"$what: boundaries inside records: $inside; ${err.getMessage}"
            )
          case got @ Right(_) =>
            assert(FuzzScan.same(got, whole), s"$what: ${FuzzScan.describe(got)}; ${difference(got, rows)}")
        }
      }
    }
  }

  private def difference(got: Outcome, whole: Rows): String = got match {
    case Left(err) => s"the whole read gives ${whole.size} rows; this one fails: ${err.getMessage}"
    case Right(rows) =>
      val i = rows.indices.find(i => i >= whole.size || rows(i) != whole(i)).getOrElse(rows.size)
      val mine = if (i < rows.size) show(rows(i)) else "nothing"
      val theirs = if (i < whole.size) show(whole(i)) else "nothing"
      s"${rows.size} rows where the whole read gives ${whole.size}; row ${i + 1} is $mine, not $theirs"
  }
}

object CsvFuzzSuite {

  /** A generated file, the mutations applied to it, the corrupt-record text limit, two (batchRows,
    * batchBytes) pairs and two split counts to read it with.
    */
  final case class Example(
      doc: CsvGen.Doc,
      mutations: List[Mutation],
      maxText: Int,
      batches: List[(Int, Long)],
      splits: List[Int],
      oneLifecycle: Boolean
  ) {
    val bytes: Array[Byte] = Mutation.applyAll(doc.bytes, mutations)

    def options(mode: String): Seq[(String, String)] =
      Seq(
        "header" -> "true",
        "delimiter" -> doc.delimiter.toString,
        "mode" -> mode,
        "columnNameOfCorruptRecord" -> Corrupt,
        "maxRecordTextBytes" -> maxText.toString
      ) ++ doc.dialect.comment.map(c => "comment" -> (c & 0xff).toChar.toString)

    override def toString: String =
      s"CSV example: $doc, mutations $mutations, maxRecordTextBytes $maxText, (batchRows, batchBytes) $batches, " +
        s"split counts $splits${if (oneLifecycle) " (one task)" else ""}\n  file: ${Show.bytes(bytes)}"
  }

  private val batchSizes: Gen[(Int, Long)] =
    Gen.oneOf((1, 16L << 20), (2, 64L), (3, 1L), (7, 256L), (4096, 16L), (5, 40L))

  def example(mutate: Boolean): Gen[Example] =
    for {
      doc <- CsvGen.doc
      mutations <-
        if (!mutate) Gen.const(List.empty[Mutation])
        else
          Mutation.some(Mutation.csvSpecials(doc.delimiter, doc.dialect.comment.map(c => (c & 0xff).toChar)))
      maxText <- Gen.oneOf(0, 1, 7, 64, 1 << 20)
      batches <- Gen.listOfN(2, batchSizes)
      splits <- Gen.listOfN(2, Gen.choose(2, 40))
      oneLifecycle <- Gen.oneOf(true, false)
    } yield Example(doc, mutations, maxText, batches, splits, oneLifecycle)
}
