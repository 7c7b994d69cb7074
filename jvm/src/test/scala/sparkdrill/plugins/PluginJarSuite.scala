package sparkdrill.plugins

import org.apache.spark.sql.DataFrame
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.{LocalSpark, TestFiles}
import sparkdrill.plugins.ExampleJar.withContextLoader

/** A format from the user's own jar: a real local Spark started with the example format's jar in
  * `spark.jars`, the jar nowhere on this JVM's classpath. The executor fetches it into its own class loader
  * (readers are made on the task thread, looked up by the format's name); the driver's planning thread has it
  * as spark-submit gives it `--jars`: in its context class loader, set here after the executor was made, so
  * the executor cannot see it through that one.
  */
class PluginJarSuite extends AnyFunSuite with TestFiles with LocalSpark {
  private lazy val driverLoader = ExampleJar.loader()

  override protected def sparkConf: Map[String, String] = Map("spark.jars" -> ExampleJar.file.getAbsolutePath)

  override def beforeAll(): Unit = {
    super.beforeAll()
    assert(
      spark.sparkContext.listJars().exists(_.endsWith(ExampleJar.file.getName)),
      "a session of another suite"
    )
  }

  private def rows(df: DataFrame): Seq[Seq[Any]] = df.collect().toSeq.map(_.toSeq)

  test("a .fwf file is read by suffix, and any file with format=fixedwidth, with the format's options") {
    write("2024/a.fwf" -> "  1ann  \n  2bob  x\n", "b.data" -> "  3cy   \n")
    withContextLoader(driverLoader) {
      val bySuffix = spark.read.format("drill").option("widths", "id:3,name:5").load(root.toString)
      assert(bySuffix.schema.fieldNames.toSeq == Seq("id", "name", "rest", "dir0"))
      assert(rows(bySuffix.orderBy("id")) == Seq(Seq("1", "ann", null, "2024"), Seq("2", "bob", "x", "2024")))
      val named = spark.read.format("drill").option("format", "fixedwidth").option("widths", "3,5")
      assert(
        rows(named.load(root.toString).select("_c0", "_c1", "filename").orderBy("_c0")) == Seq(
          Seq("1", "ann", "a.fwf"),
          Seq("2", "bob", "a.fwf"),
          Seq("3", "cy", "b.data")
        )
      )
    }
  }

  test("a misspelt option of the format fails at planning, naming the format's option") {
    write("a.fwf" -> "  1ann  \n")
    withContextLoader(driverLoader) {
      val e = intercept[IllegalArgumentException] {
        spark.read.format("drill").option("widht", "3,5").load(root.toString)
      }
      assert(e.getMessage.contains("unknown option 'widht'; did you mean widths?"), e.getMessage)
    }
  }

  test("a thread whose context class loader lacks the jar does not see the format") {
    write("a.fwf" -> "  1ann  \n")
    val e = intercept[IllegalArgumentException] {
      spark.read.format("drill").option("format", "fixedwidth").load(root.toString)
    }
    assert(e.getMessage.contains("unknown format 'fixedwidth'"), e.getMessage)
  }
}
