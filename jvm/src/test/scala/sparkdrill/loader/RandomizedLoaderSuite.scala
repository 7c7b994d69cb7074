package sparkdrill.loader

import scala.util.Random

import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.loader.testkit.LoaderTestKit._
import sparkdrill.loader.testkit.{M, S}

/** Random nested schemas, random values and random limits: the rows read back equal the rows written. */
class RandomizedLoaderSuite extends AnyFunSuite {

  private def randomType(rng: Random, depth: Int): DataType = rng.nextInt(if (depth > 2) 7 else 10) match {
    case 0 => IntegerType
    case 1 => LongType
    case 2 => DoubleType
    case 3 => BooleanType
    case 4 | 5 => StringType
    case 6 => DecimalType(12, 3)
    case 7 => ArrayType(randomType(rng, depth + 1))
    case 8 =>
      StructType((0 until 1 + rng.nextInt(3)).map(i => StructField(s"f$i", randomType(rng, depth + 1))))
    case _ => MapType(StringType, randomType(rng, depth + 1))
  }

  private def randomValue(rng: Random, t: DataType, nullable: Boolean): Any =
    if (nullable && rng.nextInt(8) == 0) null
    else
      t match {
        case IntegerType => rng.nextInt()
        case LongType => rng.nextLong()
        case DoubleType => rng.nextDouble()
        case BooleanType => rng.nextBoolean()
        case StringType => rng.alphanumeric.take(rng.nextInt(20)).mkString
        case _: DecimalType => BigDecimal(rng.nextInt(1000000)) / 1000
        case ArrayType(e, _) => (0 until rng.nextInt(4)).map(_ => randomValue(rng, e, nullable = true))
        case s: StructType => S(s.fields.map(f => randomValue(rng, f.dataType, nullable = true)).toSeq: _*)
        case MapType(_, v, _) =>
          M((0 until rng.nextInt(3)).map(k => s"k$k" -> randomValue(rng, v, nullable = true)): _*)
        case other => throw new IllegalArgumentException(other.simpleString)
      }

  test("300 random schemas round-trip through random row and byte limits") {
    roundTrip(new Random(20261122L), discarded = 0)
  }

  test("300 random schemas with discarded rows (nulls and overflows in them) between the saved ones") {
    roundTrip(new Random(20261123L), discarded = 3)
  }

  /** Before each saved row, up to `discarded` rows of random values are started and never saved. */
  private def roundTrip(rng: Random, discarded: Int): Unit =
    for (round <- 0 until 300) {
      val schema = StructType((0 until 1 + rng.nextInt(5)).map(i => StructField(s"c$i", randomType(rng, 0))))
      // With discarded rows, saved rows also leave columns out (read back as null), so that a value a
      // discarded row wrote has to be forgotten.
      val data = (0 until rng.nextInt(200)).map(_ =>
        schema.fields.map { f =>
          if (discarded > 0 && rng.nextInt(6) == 0) Skip else randomValue(rng, f.dataType, nullable = true)
        }.toSeq
      )
      val options = LoaderOptions(batchRows = 1 + rng.nextInt(50), batchBytes = 16L + rng.nextInt(2000))
      val l = ResultSetLoaders.create(options, schema, ProjectionFilter.All)
      try {
        val (out, sizes) =
          try collect(l, data, before = () => discardRows(rng, l, schema, discarded))
          catch {
            case e: Throwable =>
              throw new AssertionError(s"round $round (${schema.simpleString}, $options): $e", e)
          }
        assert(sizes.sum == data.size && sizes.forall(_ > 0), s"round $round: batch sizes $sizes")
        val expected = data.map(_.map(v => if (v == Skip) null else v))
        out.zip(expected).zipWithIndex.find { case ((a, b), _) => a != b }.foreach { case ((a, b), i) =>
          fail(s"round $round (${schema.simpleString}, $options): row $i: $a != $b")
        }
      } finally l.close()
    }

  private def discardRows(rng: Random, l: ResultSetLoader, schema: StructType, max: Int): Unit =
    if (max > 0) (0 until rng.nextInt(max + 1)).foreach { _ =>
      l.writer.start()
      schema.fields.zipWithIndex.foreach { case (f, i) =>
        if (rng.nextBoolean()) write(l.writer.column(i), randomValue(rng, f.dataType, nullable = true))
      }
    }
}
