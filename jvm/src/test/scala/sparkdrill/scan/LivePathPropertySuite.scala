package sparkdrill.scan

import scala.util.Random

import org.apache.spark.sql.types.{StringType, StructType}
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles

/** The tracker's properties through the planner queries use, on real files (fixed seeds, so failures
  * replay): the same files named in any order give the same schema and rows, and any projection gives the
  * values of `*` then select.
  */
class LivePathPropertySuite extends AnyFunSuite with TestFiles {
  private val Seeds = 1 to 25
  private val Names = Seq("a", "b", "c", "d", "e")

  /** Random CSV files with drifting headers in up to two directory levels; returns their relative paths. */
  private def files(r: Random): Seq[String] = (0 until 1 + r.nextInt(5)).map { i =>
    val header = r.shuffle(Names).take(1 + r.nextInt(4)).map(n => if (r.nextBoolean()) n else n.toUpperCase)
    val rows = (0 until r.nextInt(6)).map(_ => header.map(_ => if (r.nextInt(5) == 0) "" else r.nextInt(100)))
    val dir = Seq("", "x/", "y/z/")(r.nextInt(3))
    val rel = s"$dir${"f"}$i.csv"
    write(rel -> (header.mkString(",") +: rows.map(_.mkString(","))).mkString("", "\n", "\n"))
    rel
  }

  private def read(scan: TableScan, required: StructType): Seq[Seq[String]] = {
    val l = ScanTestKit.lifecycle(ScanTestKit.query(scan, required))
    try {
      val out = Seq.newBuilder[Seq[String]]
      while (l.next()) {
        val b = l.batch
        (0 until b.numRows).foreach { r =>
          out += (0 until b.numCols).map(c =>
            if (b.column(c).isNullAt(r)) null else b.column(c).getUTF8String(r).toString
          )
        }
      }
      out.result()
    } finally l.close()
  }

  private def fresh[T](body: => T): T = {
    afterEach()
    beforeEach()
    body
  }

  test("property: the same files named in any order give the same schema and rows") {
    Seeds.foreach { seed =>
      fresh {
        val r = new Random(seed)
        val rels = files(r)
        val paths = rels.map(root.resolve(_).toString)
        val a = ScanTestKit.open(paths, Seq("header" -> "true"))
        val b = ScanTestKit.open(r.shuffle(paths), Seq("header" -> "true"))
        assert(a.schema == b.schema, s"seed $seed")
        assert(read(a, a.schema).sortBy(_.mkString) == read(b, b.schema).sortBy(_.mkString), s"seed $seed")
      }
    }
  }

  test("property: any projection gives the values of * then select (file columns included)") {
    Seeds.foreach { seed =>
      fresh {
        val r = new Random(seed)
        files(r)
        val scan = ScanTestKit.open(Seq(root.toString), Seq("header" -> "true"))
        val filename = ScanTestKit.metadataField("filename", StringType)
        val all = StructType(scan.schema.fields :+ filename)
        val whole = read(scan, all)
        (0 until 5).foreach { _ =>
          val picked = r.shuffle(all.fields.indices.toVector).take(r.nextInt(all.size + 1))
          val rows = read(scan, StructType(picked.map(all.fields(_))))
          if (picked.isEmpty) assert(rows.size == whole.size, s"seed $seed: count(*)")
          else assert(rows == whole.map(row => picked.map(row(_))), s"seed $seed: ${picked.map(all(_).name)}")
        }
      }
    }
  }
}
