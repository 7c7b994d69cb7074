package sparkdrill.reader

import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

/** The zero of a type, defined once ([[Fills.zero]]): every type a NOT NULL column may have. */
class FillsSuite extends AnyFunSuite {
  test("each atomic type's zero, decimal and binary included") {
    assert(Fills.zero(IntegerType) == 0 && Fills.zero(DateType) == 0)
    assert(Fills.zero(ShortType) == 0.toShort && Fills.zero(ByteType) == 0.toByte)
    assert(Seq(LongType, TimestampType, TimestampNTZType).forall(Fills.zero(_) == 0L))
    assert(Fills.zero(DoubleType) == 0.0 && Fills.zero(FloatType) == 0.0f)
    assert(Fills.zero(BooleanType) == false)
    assert(Fills.zero(StringType) == UTF8String.EMPTY_UTF8)
    assert(Fills.zero(BinaryType).asInstanceOf[Array[Byte]].isEmpty)
    val d = Fills.zero(DecimalType(7, 3)).asInstanceOf[Decimal]
    assert(d.toJavaBigDecimal.compareTo(java.math.BigDecimal.ZERO) == 0 && d.scale == 3 && d.precision == 7)
  }

  test("a nested type has no single zero") {
    Seq(ArrayType(IntegerType), MapType(StringType, IntegerType), new StructType().add("a", IntegerType))
      .foreach(t => assert(Fills.zero(t) == null, t))
  }

  test("the zero of every atomic type is a value its writer takes (none falls through to an error)") {
    Seq(IntegerType, ShortType, ByteType, LongType, DateType, TimestampType, TimestampNTZType, DoubleType)
      .++(Seq(FloatType, BooleanType, StringType, BinaryType, DecimalType(10, 2)))
      .foreach(t => Fills.zeroWriter(StructField("c", t, nullable = false)))
  }
}
