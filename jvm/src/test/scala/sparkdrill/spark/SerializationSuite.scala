package sparkdrill.spark

import java.io.{ByteArrayInputStream, ByteArrayOutputStream, ObjectInputStream, ObjectOutputStream}

import org.apache.spark.sql.types.{IntegerType, LongType, StringType, StructField, StructType}
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.scan.{FileTask, ScanLifecycle, ScanSpec, ScanTestKit}

/** Everything that ships to executors survives Java serialization: input partitions (file tasks with their
  * per-file constants and fills) and the scan spec (options, projection, schemas).
  */
class SerializationSuite extends AnyFunSuite with TestFiles {
  private def roundTrip[T <: AnyRef](o: T): T = {
    val bytes = new ByteArrayOutputStream()
    val out = new ObjectOutputStream(bytes)
    out.writeObject(o)
    out.close()
    new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray)).readObject().asInstanceOf[T]
  }

  // id, name and filename of every row.
  private def rows(spec: ScanSpec, tasks: Array[FileTask]): Seq[Seq[Any]] = {
    val l = new ScanLifecycle(spec, tasks, ScanTestKit.conf)
    try {
      val out = Seq.newBuilder[Seq[Any]]
      while (l.next()) {
        val b = l.batch
        (0 until b.numRows).foreach { r =>
          out += Seq(
            b.column(0).getInt(r),
            b.column(1).getUTF8String(r).toString,
            b.column(3).getUTF8String(r).toString
          )
        }
      }
      out.result()
    } finally l.close()
  }

  test("input partitions and the scan spec of a query with every kind of column round-trip") {
    write("2024/a.csv" -> "id,name\n1,ann\n", "b.csv" -> "id\n2\n")
    val scan = ScanTestKit.open(
      Seq(root.toString),
      Seq(
        "header" -> "true",
        "providedSchema" -> "id INT NOT NULL DEFAULT 7, name STRING NOT NULL DEFAULT 'x'",
        "columnNameOfCorruptRecord" -> "_bad",
        "validate" -> "all",
        "format.id" -> "##",
        "fs.defaultFS" -> "file:///"
      )
    )
    val required = StructType(
      Seq(
        StructField("id", IntegerType, nullable = false),
        StructField("name", StringType, nullable = false),
        StructField("dir0", StringType),
        ScanTestKit.metadataField("filename", StringType),
        ScanTestKit.metadataField("_line", LongType)
      )
    )
    val plan = ScanTestKit.query(scan, required)
    val partition = DrillInputPartition(0, plan.tasks.flatten)
    val copy = roundTrip(partition)
    def shipped(p: DrillInputPartition) =
      p.tasks.toSeq.map(t => (t.file.path, t.start, t.end, t.constants))
    assert(shipped(copy) == shipped(partition))
    val spec = roundTrip(plan.spec)
    assert(spec.fillsWhereAbsent.nonEmpty, "a NOT NULL column carries what fills it in a file that lacks it")
    assert(spec.fillsWhereAbsent == plan.spec.fillsWhereAbsent)
    assert(spec.outputSchema == plan.spec.outputSchema && spec.readerSchema == plan.spec.readerSchema)
    assert(spec.sources.toSeq == plan.spec.sources.toSeq)
    assert(spec.options.toString == plan.spec.options.toString)
    assert(spec.projection.isProjected("id") && !spec.projection.isProjected("_bad"))
    // The copies read the same rows as the originals.
    assert(rows(spec, copy.tasks) == rows(plan.spec, partition.tasks))
    assert(rows(spec, copy.tasks).toSet == Set(Seq(1, "ann", "a.csv"), Seq(2, "x", "b.csv")))
  }
}
