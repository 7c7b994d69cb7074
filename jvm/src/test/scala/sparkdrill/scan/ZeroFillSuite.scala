package sparkdrill.scan

import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles

/** A JSON array that holds no nulls takes its element type's zero for a null element: decimal and binary
  * too (the JSON reader's own copy of the zeros lacked them and wrote null into a non-null array).
  */
class ZeroFillSuite extends AnyFunSuite with TestFiles {
  test("a null element of an array<decimal> without nulls is the decimal's zero") {
    write("a.json" -> "{\"a\": [1.5, null]}\n")
    val schema = new StructType().add("a", ArrayType(DecimalType(5, 2), containsNull = false))
    val scan = ScanTestKit.open(Seq(root.toString), Nil, definedSchema = Some(schema))
    val l = ScanTestKit.lifecycle(ScanTestKit.query(scan, schema))
    try {
      assert(l.next())
      val array = l.batch.column(0).getArray(0)
      assert(array.numElements == 2 && !array.isNullAt(1))
      assert(array.getDecimal(0, 5, 2).toString == "1.50" && array.getDecimal(1, 5, 2).toString == "0.00")
    } finally l.close()
  }
}
