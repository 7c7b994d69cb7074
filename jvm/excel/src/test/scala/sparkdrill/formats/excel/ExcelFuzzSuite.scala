package sparkdrill.formats.excel

import java.io.{ByteArrayInputStream, ByteArrayOutputStream}
import java.nio.file.{Files, Path, Paths}
import java.util.zip.{ZipEntry, ZipInputStream, ZipOutputStream}

import scala.concurrent.duration._
import scala.util.Random

import org.apache.spark.sql.types.{LongType, StringType, StructType}
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.formats.excel.Workbooks._
import sparkdrill.fuzz.{Bounded, FuzzScan}
import sparkdrill.reader.ScanException
import sparkdrill.scan.ScanTestKit

/** Mutated workbooks (bytes changed inside the zip's XML parts, truncated archives, bytes changed in the zip
  * itself) read in every mode through the real scan: each read ends in time with rows, or (FAILFAST only)
  * with one of the documented errors naming the file; no other exception, and no temporary copy or open
  * file left behind.
  */
class ExcelFuzzSuite extends AnyFunSuite with TestFiles {
  private val examples = 240
  private val limit = 60.seconds

  private val base: Array[Byte] = xlsx(
    Seq(
      Sheet(
        "data",
        Seq("id", "name", "score", "ok", "day", "sum") +: (1 to 30).map { i =>
          val day = Dated.day(java.time.LocalDate.of(2024, 1, 1).plusDays(i.toLong))
          Seq(i, s"n$i", i + 0.5, i % 2 == 0, day, Formula(s"A${i + 1}*2"))
        }
      ),
      sheet("more", Seq("id", "extra"), Seq(99, "x"), Seq(100, Error("#N/A")))
    )
  )

  private def entries(zip: Array[Byte]): Seq[(String, Array[Byte])] = {
    val in = new ZipInputStream(new ByteArrayInputStream(zip))
    Iterator.continually(in.getNextEntry).takeWhile(_ != null).map(e => e.getName -> in.readAllBytes()).toSeq
  }

  private def zip(parts: Seq[(String, Array[Byte])]): Array[Byte] = {
    val bytes = new ByteArrayOutputStream()
    val out = new ZipOutputStream(bytes)
    parts.foreach { case (name, data) =>
      out.putNextEntry(new ZipEntry(name)); out.write(data); out.closeEntry()
    }
    out.close()
    bytes.toByteArray
  }

  // Characters that matter to XML and to cells' values: a flip to one of them breaks a tag, an attribute, a
  // number or an index as often as it changes a value.
  private val Alphabet = "<>/\"'=&;#0123456789.-eE tsnbdrvc\u00e9\u0000".getBytes("UTF-8")

  private def mutate(r: Random): (String, Array[Byte]) = r.nextInt(3) match {
    case 0 =>
      val parts = entries(base)
      val xml = parts.indices.filter(i => parts(i)._1.endsWith(".xml") || parts(i)._1.endsWith(".rels"))
      val k = xml(r.nextInt(xml.size))
      val data = parts(k)._2.clone()
      (1 to 1 + r.nextInt(4)).foreach(_ =>
        data(r.nextInt(data.length)) = Alphabet(r.nextInt(Alphabet.length))
      )
      s"bytes changed in ${parts(k)._1}" -> zip(parts.updated(k, parts(k)._1 -> data))
    case 1 =>
      val n = r.nextInt(base.length)
      s"cut at $n of ${base.length} bytes" -> base.take(n)
    case _ =>
      val data = base.clone()
      (1 to 1 + r.nextInt(8)).foreach(_ => data(r.nextInt(data.length)) = r.nextInt(256).toByte)
      "bytes changed in the zip" -> data
  }

  // The documented errors of a bad workbook under FAILFAST: the reader's malformed file or record, or
  // discovery's unreadable file (whose cause is the workbook's reason).
  private def documented(e: ScanException): Boolean =
    e.reason.startsWith("malformed file:") || e.reason.startsWith("malformed record:") ||
      (e.reason.startsWith("cannot read the file to discover its schema") &&
        e.getCause.isInstanceOf[Workbook.Unreadable])

  private def copiesLeft(): Set[Path] = {
    val tmp = Paths.get(System.getProperty("java.io.tmpdir"))
    val s = Files.list(tmp)
    try
      s.filter(_.getFileName.toString.startsWith("spark-drill-excel-"))
        .toArray
        .map(_.asInstanceOf[Path])
        .toSet
    finally s.close()
  }

  private def openFiles(): Int = Option(Paths.get("/proc/self/fd").toFile.list()).fold(0)(_.length)

  test(
    s"$examples mutated workbooks in every mode: rows, or a documented error in FAILFAST; in time, nothing left"
  ) {
    val r = new Random(40)
    val copiesBefore = copiesLeft()
    val filesBefore = openFiles()
    var failed, read = 0
    (1 to examples).foreach { n =>
      val (what, data) = mutate(r)
      val file = FuzzScan.write(root, "w.xlsx", data)
      FuzzScan.Modes.foreach { mode =>
        val clue = s"example $n ($what), mode=$mode"
        val outcome = Bounded(limit) {
          FuzzScan.open(file, Seq("format" -> "excel", "sheet" -> "*", "mode" -> mode)) match {
            case Left(e) => Left(e)
            case Right(scan) =>
              val required = StructType(
                scan.schema.fields.toSeq :+ ScanTestKit.metadataField("_line", LongType) :+
                  ScanTestKit.metadataField("sheet", StringType)
              )
              FuzzScan.read(scan, required)
          }
        }
        outcome match {
          case Bounded.Done(Right(rows)) => if (rows.nonEmpty) read += 1
          case Bounded.Done(Left(e)) =>
            failed += 1
            assert(mode == "FAILFAST", s"$clue: only FAILFAST fails, yet: ${e.getMessage}")
            assert(documented(e), s"$clue: an undocumented error: ${e.getMessage}")
            assert(e.path.endsWith("w.xlsx"), s"$clue: the error does not name the file: ${e.getMessage}")
          case Bounded.Threw(e) => fail(s"$clue: threw ${e.getClass.getName}: ${e.getMessage}", e)
          case Bounded.TimedOut => fail(s"$clue: no answer in $limit")
        }
      }
      FuzzScan.delete(file)
    }
    // The mutations reach both ends: workbooks still read, and workbooks FAILFAST refuses.
    assert(failed > examples / 10 && read > examples / 10, s"$failed failed, $read read rows")
    info(s"$failed FAILFAST errors, $read reads with rows, of ${examples * FuzzScan.Modes.size} reads")
    assert(copiesLeft() == copiesBefore, "temporary copies of workbooks were left behind")
    assert(openFiles() <= filesBefore + 2, s"open files: $filesBefore before, ${openFiles()} after")
  }
}
