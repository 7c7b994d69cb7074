package sparkdrill.spark

import java.util

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.{DataFrame, Row, SparkSession}
import org.apache.spark.sql.types.{StringType, StructField, StructType}
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import sparkdrill.scan.SchemaReport

/** `sd.describe(spark, path, **options)`: the per-file schema report as a DataFrame. */
object Describe {
  val schema: StructType = StructType(
    Seq("file", "column", "file_type", "table_type", "seen_in", "first_file").map(
      StructField(_, StringType, false)
    ) :+
      StructField("conflict", StringType, nullable = true)
  )

  def describe(spark: SparkSession, options: util.Map[String, String]): DataFrame = {
    val table = DrillTable.open(new CaseInsensitiveStringMap(options), definedSchema = None)
    val sampled = table.plan.options.boolean("inferTypes", default = false)
    val rows = SchemaReport.of(table.plan, sampled).map { r =>
      Row(r.file, r.column, r.fileType, r.tableType, r.seenIn, r.firstFile, r.conflict.orNull)
    }
    spark.createDataFrame(rows.asJava, schema)
  }
}
