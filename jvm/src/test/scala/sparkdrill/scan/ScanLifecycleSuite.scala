package sparkdrill.scan

import scala.collection.mutable.ArrayBuffer

import org.apache.spark.sql.execution.vectorized.OffHeapColumnVector
import org.apache.spark.sql.types.{ArrayType, BinaryType, StringType, StructType}
import org.apache.spark.sql.vectorized.{ColumnVector, ColumnarBatch}
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles

class ScanLifecycleSuite extends AnyFunSuite with TestFiles {

  private def plan(options: (String, String)*): TableScan = ScanTestKit.open(Seq(root.toString), options)

  private def lifecycle(p: TableScan, required: StructType): ScanLifecycle =
    ScanTestKit.lifecycle(ScanTestKit.query(p, required))

  /** Reads every batch, recording rows as strings and each batch's size and vectors. */
  private def readAll(lifecycle: ScanLifecycle): (Seq[Seq[String]], Seq[Int], Seq[ColumnarBatch]) = {
    val rows = ArrayBuffer.empty[Seq[String]]
    val sizes = ArrayBuffer.empty[Int]
    val batches = ArrayBuffer.empty[ColumnarBatch]
    while (lifecycle.next()) {
      val b = lifecycle.batch
      sizes += b.numRows
      batches += b
      for (r <- 0 until b.numRows)
        rows += (0 until b.numCols).map { c =>
          val v = b.column(c)
          if (v.isNullAt(r)) null else v.getUTF8String(r).toString
        }
    }
    (rows.toSeq, sizes.toSeq, batches.toSeq)
  }

  test("writes every file's rows into off-heap vectors, batch by batch, unioned by header name") {
    write(
      "a/one.csv" -> "x,y\n1,2\n3,4\n5,6\n",
      "b/two.csv" -> "y,z\n7,8\n9,10\n",
      "three.csv" -> "z,x\n11,12\n"
    )
    val p = plan("header" -> "true", "batchRows" -> "2")
    assert(p.schema.fieldNames.toSeq == Seq("x", "y", "z", "dir0"))
    assert(p.schema.fields.forall(_.dataType == StringType))
    val lifecycle = this.lifecycle(p, p.schema)
    val (rows, sizes, batches) =
      try readAll(lifecycle)
      catch { case e: Throwable => lifecycle.close(); throw e }
    // String bytes live in each vector's child; its native address is zeroed when the vector is freed.
    def bytesOf(v: org.apache.spark.sql.vectorized.ColumnVector): OffHeapColumnVector =
      v.asInstanceOf[OffHeapColumnVector].arrayData().asInstanceOf[OffHeapColumnVector]
    assert(
      rows == Seq(
        Seq("1", "2", null, "a"),
        Seq("3", "4", null, "a"),
        Seq("5", "6", null, "a"),
        Seq(null, "7", "8", "b"),
        Seq(null, "9", "10", "b"),
        Seq("12", null, "11", null)
      )
    )
    assert(sizes == Seq(2, 1, 2, 1), "a batch ends at batchRows and never spans two files")
    val vectors = batches.flatMap(b => (0 until 3).map(b.column)).distinct
    assert(vectors.forall(_.isInstanceOf[OffHeapColumnVector]), "table columns are off-heap vectors")
    assert(vectors.size == 3, "vectors are reused from batch to batch")
    val bytes = vectors.map(bytesOf)
    assert(bytes.forall(_.valuesNativeAddress() != 0L), "vectors hold off-heap memory while the scan runs")
    lifecycle.close()
    assert(bytes.forall(_.valuesNativeAddress() == 0L), "close() frees every vector")
  }

  test("reads only the columns asked for, in the order asked") {
    write("one.csv" -> "x,y,z\n1,2,3\n")
    val p = plan("header" -> "true")
    val query = ScanTestKit.query(p, StructType(Seq(p.schema("z"), p.schema("x"))))
    assert(query.spec.readerSchema.fieldNames.toSeq == Seq("z", "x"))
    val lifecycle = ScanTestKit.lifecycle(query)
    try assert(readAll(lifecycle)._1 == Seq(Seq("3", "1")))
    finally lifecycle.close()
  }

  test("a per-file constant that was null for one file is set for the next file of the same task") {
    // Both orders: shallow then deep (dir0 null, then set) and deep then shallow.
    write("a.csv" -> "x\n1\n", "d/b.csv" -> "x\n2\n", "z.csv" -> "x\n3\n")
    val p = plan("header" -> "true", "partitionStyle" -> "drill")
    val query = ScanTestKit.query(p, p.schema)
    val ordered = query.tasks.flatten.sortBy(_.file.path.split('/').last)
    val lifecycle = new ScanLifecycle(query.spec, ordered, ScanTestKit.conf)
    try assert(readAll(lifecycle)._1 == Seq(Seq("1", null), Seq("2", "d"), Seq("3", null)))
    finally lifecycle.close()
  }

  /** An off-heap vector and its children (string bytes, array elements, struct fields), found while they are
    * live: close() drops the links to the children. Spark zeroes a vector's address when it frees it.
    */
  private def offHeapTree(v: ColumnVector): Seq[OffHeapColumnVector] = v match {
    case off: OffHeapColumnVector =>
      val children = off.dataType match {
        case s: StructType => s.fields.indices.map(off.getChild)
        case _: ArrayType | StringType | BinaryType => Seq(off.arrayData())
        case _ => Nil
      }
      off +: children.flatMap(offHeapTree)
    case _ => Nil
  }

  /** Reads `batches` batches (all when negative) and closes, even when reading fails; every off-heap vector
    * handed out, and how many held native memory while read.
    */
  private def readThenClose(lifecycle: ScanLifecycle, batches: Int): (Seq[OffHeapColumnVector], Int) = {
    val vectors = ArrayBuffer.empty[OffHeapColumnVector]
    var live = 0
    var n = 0
    try
      while ((batches < 0 || n < batches) && lifecycle.next()) {
        n += 1
        val tree = (0 until lifecycle.batch.numCols).flatMap(c => offHeapTree(lifecycle.batch.column(c)))
        live = math.max(live, tree.count(_.valuesNativeAddress() != 0L))
        vectors ++= tree
      }
    finally lifecycle.close()
    (vectors.toSeq, live)
  }

  test("close frees every off-heap buffer: before the first batch, mid-scan, at the end, after a failure") {
    val records = (1 to 3000).map(i => s"""{"id": $i, "s": {"t": "x$i", "xs": [$i, 2]}, "u": "y$i"}""")
    write(
      "a.json" -> records.mkString("\n"),
      "b.json" -> (records.take(1200) :+ "{\"id\": oops}").mkString("\n")
    )
    val p = ScanTestKit.open(Seq(root.resolve("a.json").toString), Seq("batchRows" -> "500"))
    val unread = this.lifecycle(p, p.schema)
    unread.close()
    unread.close() // idempotent
    for (batches <- Seq(1, 3, -1)) {
      val (vectors, live) = readThenClose(this.lifecycle(p, p.schema), batches)
      // id's values, the struct's string bytes, the array's elements and u's bytes.
      assert(live >= 4, s"buffers were live while read ($batches batches)")
      assert(vectors.forall(_.valuesNativeAddress() == 0L), s"a buffer outlived close() ($batches batches)")
    }
    val failing =
      ScanTestKit.open(Seq(root.resolve("b.json").toString), Seq("mode" -> "FAILFAST", "batchRows" -> "500"))
    val l = this.lifecycle(failing, failing.schema)
    val handedOut = ArrayBuffer.empty[OffHeapColumnVector]
    val e = intercept[sparkdrill.reader.ScanException] {
      try
        while (l.next()) handedOut ++= (0 until l.batch.numCols).flatMap(c => offHeapTree(l.batch.column(c)))
      finally l.close()
    }
    assert(e.getMessage.contains("b.json"), e.getMessage)
    assert(handedOut.size >= 8, "batches before the bad record were handed out")
    assert(handedOut.forall(_.valuesNativeAddress() == 0L), "a failed scan frees its buffers too")
  }
}

class ProvidedSchemaScanSuite extends AnyFunSuite with TestFiles {

  test("a NOT NULL column a file lacks takes its default, or its type's zero") {
    write("a.csv" -> "name,gender\nwilma,female\n", "b.csv" -> "name\ndino\n")
    val p = ScanTestKit.open(
      Seq(root.toString),
      Seq("header" -> "true", "providedSchema" -> "id INT NOT NULL, gender STRING NOT NULL DEFAULT 'NA'")
    )
    assert(p.schema.fieldNames.toSeq == Seq("id", "gender", "name"))
    val query = ScanTestKit.query(p, p.schema)
    assert(query.spec.fillsWhereAbsent == Map(0 -> 0, 1 -> UTF8String.fromString("NA")))
    assert(rows(query) == Seq(Seq(0, "female", "wilma"), Seq(0, "NA", "dino")))
  }

  test("a file that gained or lost a NOT NULL column since planning is read as its reader declares it") {
    write("a.csv" -> "name,gender\nwilma,female\n", "b.csv" -> "name\ndino\n")
    val p = ScanTestKit.open(
      Seq(root.toString),
      Seq("header" -> "true", "providedSchema" -> "id INT NOT NULL, gender STRING NOT NULL DEFAULT 'NA'")
    )
    val query = ScanTestKit.query(p, p.schema)
    // Rewritten after planning: discovery saw a.csv with gender and b.csv without it.
    write("a.csv" -> "name\nwilma\n", "b.csv" -> "name,gender\ndino,male\n")
    assert(rows(query) == Seq(Seq(0, "NA", "wilma"), Seq(0, "male", "dino")))
  }

  private def rows(query: QueryPlan): Seq[Seq[Any]] = {
    val lifecycle = ScanTestKit.lifecycle(query)
    val rows = ArrayBuffer.empty[Seq[Any]]
    try
      while (lifecycle.next()) {
        val b = lifecycle.batch
        for (r <- 0 until b.numRows)
          rows += Seq(
            b.column(0).getInt(r),
            String.valueOf(b.column(1).getUTF8String(r)),
            String.valueOf(b.column(2).getUTF8String(r))
          )
      }
    finally lifecycle.close()
    rows.toSeq
  }
}

class MissingFileSuite extends AnyFunSuite with TestFiles {
  private def rows(l: ScanLifecycle): Seq[String] = ScanTestKit.firstColumn(l)

  test("a file deleted between planning and reading fails naming it, or is skipped with ignoreMissingFiles") {
    write("a.csv" -> "x\n1\n", "b.csv" -> "x\n2\n", "c.csv" -> "x\n3\n")
    val strict = ScanTestKit.open(Seq(root.toString), Seq("header" -> "true"))
    val lenient =
      ScanTestKit.open(Seq(root.toString), Seq("header" -> "true", "ignoreMissingFiles" -> "true"))
    val strictPlan = ScanTestKit.query(strict, strict.schema)
    val lenientPlan = ScanTestKit.query(lenient, lenient.schema)
    java.nio.file.Files.delete(root.resolve("b.csv"))
    val e = intercept[sparkdrill.reader.ScanException](rows(ScanTestKit.lifecycle(strictPlan)))
    assert(e.path.endsWith("/b.csv") && e.getMessage.contains("no longer exists"), e.getMessage)
    assert(e.getMessage.contains("ignoreMissingFiles=true skips it"), e.getMessage)
    val l = ScanTestKit.lifecycle(lenientPlan)
    assert(rows(l) == Seq("1", "3"))
    assert(l.filesSkipped == 1 && l.filesRead == 2)
  }
}

class CorruptFileSuite extends AnyFunSuite with TestFiles {
  private def gzip(text: String): Array[Byte] = {
    val bytes = new java.io.ByteArrayOutputStream()
    val out = new java.util.zip.GZIPOutputStream(bytes)
    out.write(text.getBytes("UTF-8"))
    out.close()
    bytes.toByteArray
  }

  private def rows(l: ScanLifecycle): Seq[String] = ScanTestKit.firstColumn(l)

  test(
    "ignoreCorruptFiles: a file discovery cannot read is left out; one that breaks while read keeps its rows so far"
  ) {
    write("good.csv" -> "x\ngood\n")
    java.nio.file.Files
      .write(root.resolve("corrupt.csv.gz"), "\u001f\u008b\u0008\u0000 not gzip".getBytes("ISO-8859-1"))
    val whole = gzip("x\n" + (1 to 200000).map(i => s"r$i\n").mkString)
    java.nio.file.Files
      .write(root.resolve("truncated.csv.gz"), java.util.Arrays.copyOf(whole, whole.length / 2))
    val e = intercept[sparkdrill.reader.ScanException](
      ScanTestKit.open(Seq(root.toString), Seq("header" -> "true"))
    )
    assert(e.path.endsWith("corrupt.csv.gz") && e.getMessage.contains("cannot read the file"), e.getMessage)

    val scan = ScanTestKit.open(Seq(root.toString), Seq("header" -> "true", "ignoreCorruptFiles" -> "true"))
    assert(scan.files.map(_.path.split('/').last) == Seq("good.csv", "truncated.csv.gz"))
    val l = ScanTestKit.lifecycle(ScanTestKit.query(scan, scan.schema))
    val read = rows(l)
    val fromTruncated = read.filter(_.startsWith("r"))
    assert(read.contains("good"))
    assert(fromTruncated.nonEmpty && fromTruncated.size < 200000)
    assert(fromTruncated == (1 to fromTruncated.size).map(i => s"r$i"), "the rows before the break, in order")
    assert(l.filesCorrupt == 1)

    val strict = ScanTestKit.open(Seq(root.resolve("truncated.csv.gz").toString), Seq("header" -> "true"))
    val broken = intercept[sparkdrill.reader.ScanException](
      rows(ScanTestKit.lifecycle(ScanTestKit.query(strict, strict.schema)))
    )
    assert(broken.path.endsWith("truncated.csv.gz"), broken.getMessage)
  }
}
