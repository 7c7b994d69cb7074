package sparkdrill.scan

import java.time.ZoneOffset

import scala.collection.mutable.ArrayBuffer

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.execution.vectorized.OffHeapColumnVector
import org.apache.spark.sql.types.StringType
import org.apache.spark.sql.vectorized.ColumnarBatch
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.formats.ReaderOptions

class ScanLifecycleSuite extends AnyFunSuite with TestFiles {
  private val conf = new Configuration()

  private def plan(options: (String, String)*): TablePlan =
    TablePlan.open(Seq(root.toString), new ReaderOptions(options.toMap), None, conf, ZoneOffset.UTC)

  private def tasks(p: TablePlan): Array[FileTask] =
    p.files.map(f => FileTask(f, 0L, Long.MaxValue, None)).toArray

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
    val lifecycle = new ScanLifecycle(p.specFor(p.schema), tasks(p), conf)
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
    val spec = p.specFor(org.apache.spark.sql.types.StructType(Seq(p.schema("z"), p.schema("x"))))
    assert(spec.readerSchema.fieldNames.toSeq == Seq("z", "x"))
    val lifecycle = new ScanLifecycle(spec, tasks(p), conf)
    try assert(readAll(lifecycle)._1 == Seq(Seq("3", "1")))
    finally lifecycle.close()
  }

  test("a per-file constant that was null for one file is set for the next file of the same task") {
    // Both orders: shallow then deep (dir0 null, then set) and deep then shallow.
    write("a.csv" -> "x\n1\n", "d/b.csv" -> "x\n2\n", "z.csv" -> "x\n3\n")
    val p = plan("header" -> "true", "partitionStyle" -> "drill")
    val ordered = p.files.sortBy(_.name).toArray.map(f => FileTask(f, 0L, Long.MaxValue, None))
    val lifecycle = new ScanLifecycle(p.specFor(p.schema), ordered, conf)
    try assert(readAll(lifecycle)._1 == Seq(Seq("1", null), Seq("2", "d"), Seq("3", null)))
    finally lifecycle.close()
  }

  test("close is idempotent and safe before the first batch") {
    write("one.csv" -> "x\n1\n")
    val p = plan("header" -> "true")
    val lifecycle = new ScanLifecycle(p.specFor(p.schema), tasks(p), conf)
    lifecycle.close()
    lifecycle.close()
  }
}

class ProvidedSchemaScanSuite extends AnyFunSuite with TestFiles {
  private val conf = new Configuration()

  test("a NOT NULL column a file lacks takes its default, or its type's zero") {
    write("a.csv" -> "name,gender\nwilma,female\n", "b.csv" -> "name\ndino\n")
    val p = TablePlan.open(
      Seq(root.toString),
      ReaderOptions(
        "header" -> "true",
        "providedSchema" -> "id INT NOT NULL, gender STRING NOT NULL DEFAULT 'NA'"
      ),
      None,
      conf,
      ZoneOffset.UTC
    )
    assert(p.schema.fieldNames.toSeq == Seq("id", "gender", "name"))
    val spec = p.specFor(p.schema)
    val tasks = p.files.zip(p.fileSchemas).map { case (f, s) =>
      FileTask(f, 0L, Long.MaxValue, None, p.missingRequired(spec, s))
    }
    assert(tasks.map(_.missingRequired) == Seq(Seq(0), Seq(0, 1)))
    val lifecycle = new ScanLifecycle(spec, tasks.toArray, conf)
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
    assert(rows == Seq(Seq(0, "female", "wilma"), Seq(0, "NA", "dino")))
  }
}
