package sparkdrill.fuzz

import java.nio.file.Path

import org.apache.spark.sql.types.StructType
import org.scalacheck.Gen

import sparkdrill.fuzz.FuzzScan.{Corrupt, Modes, Outcome, Reason}
import sparkdrill.reader.ScanException
import sparkdrill.tags.Slow

/** The JSON reader under fuzzing (issue 14), through the real scan on real files, in every mode:
  *
  *   - (a) the only errors are the documented ones: broken JSON under FAILFAST (at discovery or while
  *     reading), a broken record inside a root array in every mode, a value that does not convert under
  *     FAILFAST; never an internal exception, a StackOverflowError or an OutOfMemoryError;
  *   - (b) no example runs longer than [[FuzzConfig.timeout]];
  *   - (c) for valid files and for the documented breakages ([[JsonBreakage]]), the reads hold exactly the
  *     records [[ReferenceJson]] finds by the documented rules (one per top-level value or root-array
  *     element; a broken one is one malformed record and reading goes on at the next line that starts with
  *     `{`), with their `_line` and `_offset`: PERMISSIVE all of them, the broken ones with their text in the
  *     corrupt-record column; DROPMALFORMED the others; FAILFAST all of them, or the error of the first
  *     broken one. Arbitrary byte mutations are left out of (c) only (see [[JsonBreakage]] for why);
  *   - (d) every error names the file, a line and an offset;
  *   - (e) under PERMISSIVE any batch size and any split size read the same rows (a JSON file is never
  *     split), and `count(*)` counts as many in every mode (`validate=all`, so that counting converts what
  *     reading does).
  */
@Slow
class JsonFuzzSuite extends FuzzSuite {
  import JsonFuzzSuite._

  property("valid JSON: the documented records in every mode, batch size and split size", 60, validExamples)(
    checkExample
  )

  property(
    "mutated JSON: documented errors only, no hang, any batch or split size alike",
    120,
    mutatedExamples
  )(
    checkExample
  )

  property("broken JSON lines: exactly the documented records, malformed ones included", 120, brokenExamples)(
    checkExample
  )

  private def checkExample(e: Example): Unit = {
    val file = FuzzScan.write(root, "f.json", e.bytes)
    try {
      val reads = Modes.map(mode => mode -> readMode(e, file, mode)).toMap
      if (e.reference) compareWithReference(e, reads)
      checkPermissiveReads(e, file, reads("PERMISSIVE"))
    } finally FuzzScan.delete(file)
  }

  private def allowed(mode: String): Seq[String] =
    if (mode == "FAILFAST") Seq(Reason.MalformedJson, Reason.JsonConversion) else Seq(Reason.MalformedJson)

  // Under PERMISSIVE and DROPMALFORMED only a broken record inside a root array fails the read.
  private def checkError(err: ScanException, file: Path, mode: String, what: String): Unit = {
    FuzzScan.checkError(err, file, allowed(mode), s"$mode, $what")
    if (mode != "FAILFAST")
      assert(
        err.option.exists(_.contains("root array")),
        s"$mode, $what: a broken record outside a root array failed the read: ${err.getMessage}"
      )
  }

  /** One mode: the table opens (under FAILFAST it may fail with a documented error), `*` with the positions
    * is read, and `count(*)` agrees. The outcome of `*`, and its columns when the table opened.
    */
  private def readMode(e: Example, file: Path, mode: String): (Outcome, Option[StructType]) =
    FuzzScan.open(file, e.options(mode)) match {
      case Left(err) =>
        checkError(err, file, mode, "discovery")
        assert(mode == "FAILFAST", s"$mode: discovery failed: ${err.getMessage}")
        (Left(err), None)
      case Right(scan) =>
        val required = FuzzScan.withPositions(scan)
        val got = FuzzScan.read(scan, required)
        got match {
          case Left(err) => checkError(err, file, mode, "reading")
          case Right(_) =>
        }
        FuzzScan.assertSameCount(scan, got, mode)
        (got, Some(required))
    }

  private def rowPositions(rows: FuzzScan.Rows): Vector[(String, String)] =
    rows.map(r => (r(r.size - 2), r(r.size - 1)))

  private def recordPositions(records: Vector[ReferenceJson.Record]): Vector[(String, String)] =
    records.map(r => (r.line.toString, r.offset.toString))

  private def compareWithReference(e: Example, reads: Map[String, (Outcome, Option[StructType])]): Unit = {
    val ref = ReferenceJson.records(e.bytes)
    if (e.valid)
      assert(
        ref.failure.isEmpty && ref.broken.isEmpty,
        "the reference finds broken JSON in a valid file (a bug in the fuzz test)"
      )
    ref.failure match {
      case Some(bad) =>
        // Not generated (broken files have no root arrays); what the documents say all the same.
        Modes.foreach { mode =>
          assert(
            reads(mode)._1.isLeft,
            s"$mode: a broken element at line ${bad.line} of a root array was read"
          )
        }
      case None =>
        val records = ref.records
        reads("PERMISSIVE") match {
          case (Right(rows), Some(required)) =>
            val corrupt = required.fieldIndex(Corrupt)
            assert(
              rowPositions(rows) == recordPositions(records),
              s"PERMISSIVE: rows at (line, offset) ${rowPositions(rows)}; the documented records are at " +
                s"${recordPositions(records)}"
            )
            assert(
              rows.map(_(corrupt) != null) == records.map(_.broken),
              s"PERMISSIVE: rows with corrupt-record text ${rows.indices.filter(rows(_)(corrupt) != null)}; the " +
                s"broken records are ${records.indices.filter(records(_).broken)}"
            )
          case (other, _) => fail(s"PERMISSIVE: ${FuzzScan.describe(other)}")
        }
        reads("DROPMALFORMED") match {
          case (Right(rows), _) =>
            val kept = records.filterNot(_.broken)
            assert(
              rowPositions(rows) == recordPositions(kept),
              s"DROPMALFORMED: rows at ${rowPositions(rows)}; the records that are not broken are at ${recordPositions(kept)}"
            )
          case (other, _) => fail(s"DROPMALFORMED: ${FuzzScan.describe(other)}")
        }
        (records.find(_.broken), reads("FAILFAST")._1) match {
          case (Some(bad), Left(err)) =>
            assert(
              err.reason.startsWith(Reason.MalformedJson) && err.line == bad.line && err.offset == bad.offset,
              s"FAILFAST: ${err.getMessage}; the first broken record is at line ${bad.line}, offset ${bad.offset}"
            )
          case (Some(bad), Right(rows)) =>
            fail(
              s"FAILFAST read ${rows.size} rows; the record at line ${bad.line}, offset ${bad.offset} is broken"
            )
          case (None, Left(err)) => fail(s"FAILFAST: ${err.getMessage}; no record is broken", err)
          case (None, Right(rows)) =>
            assert(rowPositions(rows) == recordPositions(records), s"FAILFAST: rows at ${rowPositions(rows)}")
        }
        if (e.valid) {
          val all = reads.map { case (mode, (outcome, _)) => mode -> outcome }
          val agree = Seq("DROPMALFORMED", "FAILFAST").forall(m => FuzzScan.same(all(m), all("PERMISSIVE")))
          val summary = all.map { case (m, o) => s"$m: ${FuzzScan.describe(o)}" }.mkString("; ")
          assert(agree, s"a valid file reads differently by mode: $summary")
        }
    }
  }

  private def checkPermissiveReads(
      e: Example,
      file: Path,
      permissive: (Outcome, Option[StructType])
  ): Unit = {
    val whole = permissive._1
    val options = e.options("PERMISSIVE")
    e.batches.foreach { case (batchRows, batchBytes) =>
      val what = s"PERMISSIVE, batchRows=$batchRows, batchBytes=$batchBytes"
      val scan =
        opened(file, options ++ Seq("batchRows" -> s"$batchRows", "batchBytes" -> s"$batchBytes"), what)
      val got = FuzzScan.read(scan, FuzzScan.withPositions(scan))
      assert(
        FuzzScan.same(got, whole),
        s"$what: ${FuzzScan.describe(got)}; in one batch: ${FuzzScan.describe(whole)}"
      )
    }
    val scan = opened(file, options, "PERMISSIVE")
    val size = math.max(1L, (e.bytes.length.toLong + e.split - 1) / e.split)
    val got = FuzzScan.read(scan, FuzzScan.withPositions(scan), Some(size))
    assert(
      FuzzScan.same(got, whole),
      s"PERMISSIVE, split size $size: ${FuzzScan.describe(got)}; whole: ${FuzzScan.describe(whole)}"
    )
  }
}

object JsonFuzzSuite {

  /** A file's bytes, how it was made, whether [[ReferenceJson]] applies to it (valid files and documented
    * breakages), whether it is valid, two (batchRows, batchBytes) pairs and a split count to read it with.
    */
  final case class Example(
      made: String,
      bytes: Array[Byte],
      reference: Boolean,
      valid: Boolean,
      batches: List[(Int, Long)],
      split: Int
  ) {
    def options(mode: String): Seq[(String, String)] =
      Seq("mode" -> mode, "columnNameOfCorruptRecord" -> Corrupt, "validate" -> "all")

    override def toString: String =
      s"JSON example: $made, (batchRows, batchBytes) $batches, split count $split\n  file: ${Show.bytes(bytes)}"
  }

  private val batchSizes: Gen[(Int, Long)] =
    Gen.oneOf((1, 16L << 20), (2, 64L), (3, 1L), (7, 256L), (4096, 16L), (5, 40L))

  private def example(made: String, bytes: Array[Byte], reference: Boolean, valid: Boolean): Gen[Example] =
    for {
      batches <- Gen.listOfN(2, batchSizes)
      split <- Gen.choose(2, 20)
    } yield Example(made, bytes, reference, valid, batches, split)

  val validExamples: Gen[Example] =
    JsonGen.doc.flatMap(d => example(s"valid, ${d.layout}", d.bytes, reference = true, valid = true))

  val mutatedExamples: Gen[Example] =
    for {
      doc <- JsonGen.doc
      mutations <- Mutation.some(Mutation.JsonSpecials)
      e <- example(
        s"${doc.layout}, mutations $mutations",
        Mutation.applyAll(doc.bytes, mutations),
        false,
        false
      )
    } yield e

  val brokenExamples: Gen[Example] =
    for {
      lines <- JsonGen.lines
      n <- Gen.choose(1, 3)
      breakages <- Gen.listOfN(n, JsonBreakage.gen)
      e <- example(s"JSON lines, $breakages", JsonBreakage.applyAll(lines, breakages), true, false)
    } yield e
}
