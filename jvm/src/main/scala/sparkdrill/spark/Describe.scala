package sparkdrill.spark

import java.util

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.{DataFrame, Row, SparkSession}
import org.apache.spark.sql.types.{StringType, StructField, StructType}
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import sparkdrill.scan.schema.{ColumnStatus, Discovery}

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
    // The schema tracker's report: per file, each column's type there, the table's, and what happened to it.
    val rows = table.scan.reports.flatMap { file =>
      val seenIn = if (file.discovery == Discovery.Sampled) "sample" else "header"
      file.columns.map { c =>
        val conflict = c.status match {
          case ColumnStatus.Widened(t) => t.describe
          case ColumnStatus.Dropped(r) => s"not in the table ($r)"
          case _ => null
        }
        Row(
          file.path,
          c.name,
          c.fileType.simpleString,
          c.tableType.map(_.simpleString).getOrElse("(not in the table)"),
          seenIn,
          c.firstFile.getOrElse(file.path),
          conflict
        )
      }
    }
    spark.createDataFrame(rows.asJava, schema)
  }
}
