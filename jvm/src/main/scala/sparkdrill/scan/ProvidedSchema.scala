package sparkdrill.scan

import scala.collection.mutable.ArrayBuffer

import org.apache.spark.sql.types.{DataType, MetadataBuilder, StructField, StructType}

import sparkdrill.formats.ColumnMetadata

/** Parses the `providedSchema` option: Spark DDL column definitions that may add `NOT NULL` and
  * `DEFAULT <Spark SQL literal>` (`id INT NOT NULL DEFAULT -1, day DATE DEFAULT DATE '2024-01-01'`), which
  * `StructType.fromDDL` rejects. A default is kept, as text, in the field's metadata; it only applies to NOT
  * NULL columns (Drill's rule), so a default on a nullable column is ignored.
  */
object ProvidedSchema {
  private val Column = """(?is)\s*(`(?:[^`]|``)+`|[^\s`]+)\s+(.+?)\s*""".r
  private val NotNull = """(?is)(.*?)\s+NOT\s+NULL\s*$""".r
  private val WithDefault = """(?is)(.*?)\s+DEFAULT\s+(.+)$""".r
  private val TypedLiteral = """(?is)(?:DATE|TIMESTAMP|TIMESTAMP_NTZ)\s+'(.*)'""".r
  private val Quoted = """(?s)'(.*)'""".r

  def parse(ddl: String): StructType = StructType(splitTopLevel(ddl).filter(_.trim.nonEmpty).map(column))

  private def column(text: String): StructField = text match {
    case Column(rawName, rest) =>
      val name = if (rawName.startsWith("`")) rawName.drop(1).dropRight(1).replace("``", "`") else rawName
      val (beforeDefault, default) = rest match {
        case WithDefault(t, d) => (t, Some(literalText(d.trim)))
        case _ => (rest, None)
      }
      val (typeText, notNull) = beforeDefault match {
        case NotNull(t) => (t, true)
        case t => (t, false)
      }
      val dataType =
        try DataType.fromDDL(typeText.trim)
        catch {
          case e: Exception =>
            throw new IllegalArgumentException(
              s"option 'providedSchema': column '$name' has an unknown type '${typeText.trim}'",
              e
            )
        }
      val metadata = new MetadataBuilder()
      if (notNull) default.foreach(d => metadata.putString(ColumnMetadata.DefaultKey, d))
      StructField(name, dataType, nullable = !notNull, metadata.build())
    case _ =>
      throw new IllegalArgumentException(
        s"option 'providedSchema': cannot read the column definition '$text'"
      )
  }

  /** The text of a literal as the column's converter reads it: quotes and type keywords removed. */
  private def literalText(literal: String): String = literal match {
    case TypedLiteral(v) => v.replace("''", "'")
    case Quoted(v) => v.replace("''", "'")
    case other => other
  }

  // Commas inside parentheses (decimal(10,2), struct<...>), angle brackets, quotes or backticks do not split.
  private def splitTopLevel(s: String): Seq[String] = {
    val parts = ArrayBuffer.empty[String]
    var depth = 0
    var quote: Char = 0
    var start = 0
    for (i <- s.indices) {
      val c = s.charAt(i)
      if (quote != 0) { if (c == quote) quote = 0 }
      else if (c == '\'' || c == '`') quote = c
      else if (c == '(' || c == '<') depth += 1
      else if (c == ')' || c == '>') depth -= 1
      else if (c == ',' && depth == 0) { parts += s.substring(start, i); start = i + 1 }
    }
    parts += s.substring(start)
    parts.toSeq
  }
}
