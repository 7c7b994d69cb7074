package sparkdrill.fuzz

import java.nio.charset.StandardCharsets.UTF_8

import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.scan.ScanTestKit

/** Inputs where the scan does not do what the documents say, found while writing the fuzz properties, each as
  * the smallest file that shows it. Each is pending until fixed: once the scan does what the documents say,
  * `pendingUntilFixed` fails the test, to say that it (and the exclusion it names, if any) can go.
  */
class FuzzFindingsSuite extends AnyFunSuite with TestFiles {

  // Finding 1, fixed. docs/options.md (Split rule): a range fails only when a quoted field holds a line end at its
  // end. Here none does, but the first range reads the header wherever it starts, past its end, and fails
  // with "a quoted field holds a line end where the file was split" (and the second range, starting before
  // the header, would read it as a row). Now no split's records start before the header's end.
  test("finding 1: blank lines before a CSV header that reach the first split boundary fail a split read") {
    val file = FuzzScan.write(root, "f.csv", "\n\nid\n1\n".getBytes(UTF_8))
    val scan = ScanTestKit.open(Seq(file.toString), Seq("header" -> "true"))
    val whole = FuzzScan.read(scan, scan.schema)
    assert(whole == Right(Vector(Vector("1"))))
    for (size <- 1L to 8L) {
      val split = FuzzScan.read(scan, scan.schema, Some(size))
      assert(FuzzScan.same(split, whole), s"split size $size: ${FuzzScan.describe(split)}")
    }
  }

  // Finding 2, fixed. docs/errors.md: NUL inside JSON makes the record malformed (a row of nulls with its text
  // under PERMISSIVE). A NUL among the first two bytes where the reader starts a parser (the file's start, or
  // the line it goes on at after a broken record) made Jackson guess UTF-16, with no byte offsets (-1), and
  // the read failed with ArrayIndexOutOfBoundsException. A UTF-8 byte-order mark at the start is still skipped.
  test("finding 2: a NUL in the first two bytes where a JSON parser starts is a malformed record") {
    for (
      (text, malformed) <- Seq(
        "{\u0000\"a\": 1}\n" -> Vector(true),
        "{\"a\": 1,\n{\u0000\"b\": 2}\n{\"a\": 3}\n" -> Vector(true, true, false),
        "\uFEFF{\"a\": 1}\n{\"a\": 2}\n" -> Vector(false, false)
      )
    ) {
      val file = FuzzScan.write(root, "f.json", text.getBytes(UTF_8))
      val scan = ScanTestKit.open(Seq(file.toString), Seq("columnNameOfCorruptRecord" -> FuzzScan.Corrupt))
      val corrupt = scan.schema.fieldIndex(FuzzScan.Corrupt)
      val rows = FuzzScan.read(scan, scan.schema)
      assert(rows.map(_.map(_(corrupt) != null)) == Right(malformed), FuzzScan.describe(rows))
    }
  }
}
