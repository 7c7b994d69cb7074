package sparkdrill.scan

import org.apache.spark.sql.types.StructType
import org.scalatest.funsuite.AnyFunSuite

class SplitPlannerSuite extends AnyFunSuite {
  private def file(name: String, length: Long) = ScanFile(s"file:/d/$name", length, 0L, Array.empty, "csv")
  private val header = new StructType().add("a", "string")

  test("max split bytes follows Spark: min(maxPartitionBytes, max(openCost, total / minPartitions))") {
    val files = Seq(file("a.csv", 1000), file("b.csv", 3000))
    assert(SplitPlanner.maxSplitBytes(files, SplitPlanner.Settings(10000, 0, 2)) == 2000)
    assert(SplitPlanner.maxSplitBytes(files, SplitPlanner.Settings(1500, 0, 2)) == 1500)
    assert(SplitPlanner.maxSplitBytes(files, SplitPlanner.Settings(10000, 2500, 4)) == 2500)
  }

  test("large files are cut into ranges covering every byte once; later ranges carry the header") {
    val f = file("big.csv", 1050)
    val tasks =
      SplitPlanner.plan(IndexedSeq(f), IndexedSeq(header), _ => true, SplitPlanner.Settings(100, 0, 1))
    val ranges = tasks.flatten.sortBy(_.start)
    assert(ranges.length == 11)
    assert(ranges.head.start == 0 && ranges.head.fileSchema.isEmpty)
    assert(ranges.tail.forall(_.fileSchema.contains(header)))
    ranges.toSeq.sliding(2).foreach(pair => assert(pair(0).end == pair(1).start))
    assert(ranges.last.end == Long.MaxValue)
  }

  test("unsplittable files stay whole; small files are packed together up to the split size") {
    val files = IndexedSeq(file("a.csv", 10), file("b.csv", 10), file("c.csv", 10), file("z.gz", 500))
    val tasks = SplitPlanner.plan(
      files,
      files.map(_ => header),
      f => !f.path.endsWith(".gz"),
      SplitPlanner.Settings(40, 15, 1)
    )
    assert(
      tasks.map(_.map(_.file.path).toSeq).toSeq == Seq(
        Seq("file:/d/z.gz"),
        Seq("file:/d/a.csv", "file:/d/b.csv"), // a and b with their open costs fill 40 bytes
        Seq("file:/d/c.csv")
      )
    )
    assert(tasks.flatten.forall(t => t.start == 0L && t.end == Long.MaxValue))
  }
}
