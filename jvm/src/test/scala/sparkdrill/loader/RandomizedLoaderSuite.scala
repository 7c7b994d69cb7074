package sparkdrill.loader

import scala.util.Random

import org.apache.spark.memory.MemoryMode
import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.loader.testkit.LoaderTestKit._
import sparkdrill.loader.testkit.{M, S}
import sparkdrill.tags.Slow

/** Random nested schemas, random values and random limits: the rows read back equal the rows written. */
@Slow
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
        case LongType => if (rng.nextBoolean()) rng.nextInt().toLong else rng.nextLong()
        case DoubleType => rng.nextDouble()
        case BooleanType => rng.nextBoolean()
        case StringType => rng.alphanumeric.take(rng.nextInt(20)).mkString
        case _: DecimalType => BigDecimal(rng.nextInt(1000000)) / 1000
        case ByteType => rng.nextInt(256) - 128
        case ShortType => rng.nextInt(65536) - 32768
        case FloatType => rng.nextFloat().toDouble
        case DateType => rng.nextInt(40000) - 20000
        case TimestampType => rng.nextLong()
        case BinaryType => Array.fill(rng.nextInt(12))(rng.nextInt(256).toByte)
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
        if (rng.nextBoolean()) write(l.writer.column(i), randomValue(rng, f.dataType, f.nullable))
      }
    }

  // A row's own scalar columns have a fast path (see VectorWriter) for long runs of rows that write them in
  // order; these rounds give it room (byte limits large enough that it is on), and go through every way off
  // it: a column left out, a value rewritten or nulled in the same row, discarded rows, overflows, rows past
  // a full batch, on-heap vectors (no fast path), NOT NULL columns (left out: their zero).
  private val scalarTypes =
    Seq(
      IntegerType,
      LongType,
      DoubleType,
      BooleanType,
      StringType,
      BinaryType,
      DecimalType(12, 3),
      ByteType,
      ShortType,
      FloatType,
      DateType,
      TimestampType
    )

  private def zero(t: DataType): Any = t match {
    case BooleanType => false
    case StringType => ""
    case BinaryType => Seq.empty[Byte]
    case LongType | TimestampType => 0L
    case DoubleType | FloatType => 0.0
    case _: DecimalType => BigDecimal(0)
    case _ => 0
  }

  test("400 random scalar tables through the fast path and every way off it, off-heap and on-heap") {
    val rng = new Random(20261124L)
    for (round <- 0 until 400) {
      val schema = StructType((0 until 1 + rng.nextInt(8)).map { i =>
        StructField(s"c$i", scalarTypes(rng.nextInt(scalarTypes.size)), nullable = rng.nextInt(3) > 0)
      })
      def value(f: StructField): Any = randomValue(rng, f.dataType, f.nullable)
      // Every setter a column takes: an int into a bigint column, dates and timestamps by their own setters.
      def put(w: ColumnWriter, v: Any): Unit = (v, w.dataType) match {
        case (x: Long, LongType) if x.isValidInt && rng.nextBoolean() => w.setInt(x.toInt)
        case (x: Int, DateType) if rng.nextBoolean() => w.setDate(x)
        case (x: Long, TimestampType) if rng.nextBoolean() => w.setTimestamp(x)
        case _ => write(w, v)
      }
      val data = (0 until rng.nextInt(300)).map(_ =>
        schema.fields.map(f => if (rng.nextInt(10) == 0) Skip else value(f)).toSeq
      )
      val options = LoaderOptions(
        batchRows = 1 + rng.nextInt(120),
        batchBytes = if (rng.nextInt(4) == 0) 64L + rng.nextInt(1000) else LoaderOptions.DefaultBatchBytes,
        memoryMode = if (rng.nextInt(4) == 0) MemoryMode.ON_HEAP else MemoryMode.OFF_HEAP
      )
      // This round writes on past a batch full by rows, up to three times the row limit.
      val pastFull = rng.nextInt(5) == 0
      val l = ResultSetLoaders.create(options, schema, ProjectionFilter.All)
      val out = scala.collection.mutable.ArrayBuffer.empty[Seq[Any]]
      def harvest(): Unit = out ++= rows(l.harvest(), l.projectedSchema)
      try {
        try
          data.foreach { r =>
            if (rng.nextInt(8) == 0) discardRows(rng, l, schema, 2)
            val w = l.writer
            w.start()
            r.zipWithIndex.foreach { case (v, i) =>
              if (v != Skip) {
                // Sometimes a value is first set to another value, or to null, in the same row.
                if (rng.nextInt(12) == 0) put(w.column(i), value(schema(i)))
                if (rng.nextInt(12) == 0) w.column(i).setNull()
                put(w.column(i), v)
              }
            }
            w.save()
            val byRows = l.rowCount >= options.batchRows
            if (w.isFull && (!pastFull || !byRows || l.rowCount >= 3 * options.batchRows)) harvest()
          }
        catch {
          case e: Throwable =>
            throw new AssertionError(s"round $round (${schema.simpleString}, $options): $e", e)
        }
        if (l.rowCount > 0) harvest()
        val expected = data.map(_.zip(schema.fields).map {
          case (Skip, f) => if (f.nullable) null else zero(f.dataType)
          case (b: Array[Byte], _) => b.toSeq
          case (v, _) => v
        })
        assert(out.size == expected.size, s"round $round: ${out.size} rows read, ${expected.size} written")
        out.zip(expected).zipWithIndex.find { case ((a, b), _) => a != b }.foreach { case ((a, b), i) =>
          fail(s"round $round (${schema.simpleString}, $options, past full: $pastFull): row $i: $a != $b")
        }
      } finally l.close()
    }
  }
}
