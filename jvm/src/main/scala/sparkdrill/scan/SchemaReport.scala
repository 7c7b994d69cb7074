package sparkdrill.scan

import java.util.Locale

import scala.collection.mutable

/** One line of `describe`: what one file says about one column. */
final case class ColumnReport(
    file: String,
    column: String,
    fileType: String,
    tableType: String,
    seenIn: String,
    firstFile: String,
    conflict: Option[String]
)

/** The per-file schema report behind `sd.describe`: for every file and column, the type found there, whether
  * it came from a header or a sample, which file first brought the column, and any disagreement with the
  * table's type.
  */
object SchemaReport {
  def of(plan: TablePlan, sampled: Boolean): Seq[ColumnReport] = {
    val tableTypes = plan.tableColumns.fields.map(f => f.name.toLowerCase(Locale.ROOT) -> f.dataType).toMap
    val firstFile = mutable.HashMap.empty[String, String]
    plan.files.zip(plan.fileSchemas).flatMap { case (file, schema) =>
      schema.fields.toSeq.map { f =>
        val key = f.name.toLowerCase(Locale.ROOT)
        val first = firstFile.getOrElseUpdate(key, file.displayPath)
        val tableType = tableTypes.get(key)
        val conflict = tableType.filter(_ != f.dataType).map { t =>
          s"${f.dataType.simpleString} here, ${t.simpleString} in the table"
        }
        ColumnReport(
          file.displayPath,
          f.name,
          f.dataType.simpleString,
          tableType.map(_.simpleString).getOrElse("(not in the table)"),
          if (sampled) "sample" else "header",
          first,
          conflict
        )
      }
    }
  }
}
