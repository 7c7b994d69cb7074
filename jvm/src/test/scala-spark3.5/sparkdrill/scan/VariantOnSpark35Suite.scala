package sparkdrill.scan

import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.{LocalSpark, TestFiles}

/** SPEC 14 on Spark 3.5, which has no VARIANT: each option that asks for one is an error naming the option
  * and Spark 4.0, before a file is read.
  */
class VariantOnSpark35Suite extends AnyFunSuite with LocalSpark with TestFiles {

  private def refused(options: (String, String)*): String = {
    val dir = write("in/x.json" -> "{\"a\":1}\n").resolve("in").toString
    val e = intercept[Exception](spark.read.format("drill").options(options.toMap).load(dir).collect())
    Iterator.iterate[Throwable](e)(_.getCause).takeWhile(_ != null).map(_.getMessage).mkString("\n")
  }

  test("singleVariantColumn names Spark 4.0") {
    val m = refused("singleVariantColumn" -> "v")
    assert(m.contains("singleVariantColumn") && m.contains("Spark 4.0"), m)
  }

  test("rescuedDataType=variant names Spark 4.0") {
    val m = refused("rescuedDataColumn" -> "_r", "rescuedDataType" -> "variant")
    assert(m.contains("rescuedDataType") && m.contains("Spark 4.0"), m)
  }

  test("a VARIANT in providedSchema names Spark 4.0") {
    val m = refused("providedSchema" -> "a BIGINT, attrs VARIANT")
    assert(m.contains("providedSchema") && m.contains("attrs VARIANT") && m.contains("Spark 4.0"), m)
  }

  test("rescuedDataType=string is as before") {
    val dir = write("in/y.json" -> "{\"a\":1,\"b\":2}\n").resolve("in").toString
    val rows = spark.read
      .format("drill")
      .option("providedSchema", "a INT")
      .option("strictSchema", "true")
      .option("rescuedDataColumn", "_r")
      .option("rescuedDataType", "string")
      .load(dir)
      .selectExpr("_r")
      .collect()
    assert(rows.head.getString(0).contains("\"b\":2"))
  }
}
