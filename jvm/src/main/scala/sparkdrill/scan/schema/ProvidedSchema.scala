package sparkdrill.scan.schema

import java.util.Locale

import scala.util.control.NonFatal

import org.apache.spark.sql.catalyst.expressions.{Cast, Literal}
import org.apache.spark.sql.catalyst.parser.CatalystSqlParser
import org.apache.spark.sql.types.{DataType, StructField, StructType}

import sparkdrill.loader.VariantTypes
import sparkdrill.reader.Fills
import sparkdrill.scan.VariantOptions
import sparkdrill.errors.{DrillErrors, SchemaException}

/** What fills a column where a file (or a row) has no value. */
private[sparkdrill] sealed trait Fill extends Serializable {
  def literal(dataType: DataType): Literal
}

private[sparkdrill] object Fill {

  /** A nullable column: null. */
  case object Null extends Fill {
    def literal(dataType: DataType): Literal = Literal(null, dataType)
  }

  /** `NOT NULL DEFAULT <literal>` from the provided schema, already cast to the column type. */
  final case class Default(value: Literal) extends Fill {
    def literal(dataType: DataType): Literal = value
  }

  /** `NOT NULL` without a default: the type's zero ([[Fills.zero]]), Spark's empty value for a nested type. */
  case object Zero extends Fill {
    def literal(dataType: DataType): Literal =
      Option(Fills.zero(dataType)).fold(Literal.default(dataType))(Literal(_, dataType))
  }

  def of(field: StructField, default: Option[Literal]): Fill =
    if (field.nullable) Null else default.fold[Fill](Zero)(Default(_))
}

/** One column of the provided schema. A default on a nullable column is kept here but never used. */
private[sparkdrill] final case class ProvidedColumn(field: StructField, default: Option[Literal]) {
  def fill: Fill = Fill.of(field, default)
}

/** Option `providedSchema`: Spark DDL whose columns may say `NOT NULL` and `DEFAULT <Spark SQL literal>`.
  * `StructType.fromDDL` rejects `DEFAULT`, so each column definition is split off here, the default is cut
  * out and parsed as a Spark SQL expression, and the rest goes to `fromDDL`.
  */
private[sparkdrill] final case class ProvidedSchema(columns: Seq[ProvidedColumn]) {
  def schema: StructType = StructType(columns.map(_.field))
  def find(name: String): Option[ProvidedColumn] = columns.find(_.field.name.equalsIgnoreCase(name))

  /** Defaults given on nullable columns, which SPEC 5 says are ignored. */
  def ignoredDefaults: Seq[String] =
    columns.filter(c => c.field.nullable && c.default.isDefined).map(_.field.name)
}

private[sparkdrill] object ProvidedSchema {
  def fromStructType(schema: StructType): ProvidedSchema =
    ProvidedSchema(schema.fields.toSeq.map(ProvidedColumn(_, None)))

  def parse(ddl: String): ProvidedSchema = {
    val columns = splitTopLevel(ddl).filter(_.trim.nonEmpty).map(parseColumn)
    val dup = columns.groupBy(_.field.name.toLowerCase(Locale.ROOT)).collectFirst {
      case (_, cs) if cs.size > 1 => cs.head.field.name
    }
    dup.foreach(n => throw DrillErrors.badProvidedSchema(s"providedSchema names column '$n' twice"))
    ProvidedSchema(columns)
  }

  private def parseColumn(definition: String): ProvidedColumn = {
    val (column, defaultSql) = cutDefault(definition)
    val field =
      try
        StructType.fromDDL(column).fields match {
          case Array(f) => f
          case other =>
            throw DrillErrors.badProvidedSchema(
              s"providedSchema: '$definition' defines ${other.length} columns"
            )
        }
      catch {
        case e: SchemaException => throw e
        // Spark 3.5's parser knows no VARIANT: say which Spark has it.
        case NonFatal(_) if !VariantTypes.available && mentionsVariant(column) =>
          throw DrillErrors.variantNeedsSpark4("providedSchema", definition.trim, VariantOptions.sparkVersion)
        case NonFatal(e) =>
          throw DrillErrors.badProvidedSchema(
            s"providedSchema: cannot parse column '${definition.trim}': ${firstLine(e)}"
          )
      }
    ProvidedColumn(field, defaultSql.map(sql => defaultLiteral(field, sql)))
  }

  /** Parses a default as a constant Spark SQL expression and casts it to the column type. */
  private def defaultLiteral(field: StructField, sql: String): Literal = {
    def bad(why: String) =
      DrillErrors.badProvidedSchema(s"providedSchema: DEFAULT $sql of column '${field.name}' $why")
    val expr =
      try CatalystSqlParser.parseExpression(sql)
      catch { case NonFatal(e) => throw bad(s"is not a Spark SQL literal: ${firstLine(e)}") }
    if (!expr.foldable) throw bad("is not a constant")
    val value =
      try Cast(expr, field.dataType, Some("UTC")).eval()
      catch {
        case NonFatal(e) => throw bad(s"does not convert to ${field.dataType.simpleString}: ${firstLine(e)}")
      }
    if (value == null && !field.nullable) throw bad("is null, but the column is NOT NULL")
    Literal(value, field.dataType)
  }

  private def mentionsVariant(column: String): Boolean =
    "(?i)\\bvariant\\b".r.findFirstIn(column).isDefined

  private def firstLine(e: Throwable): String =
    String.valueOf(e.getMessage).split("\\R", 2)(0)

  /** Splits at commas outside quotes, backticks, `<>` and `()`. */
  private[schema] def splitTopLevel(ddl: String): Seq[String] = {
    val parts = Vector.newBuilder[String]
    val scanner = new Scanner(ddl)
    var start = 0
    while (scanner.hasNext) {
      val (i, topLevel) = scanner.next()
      if (topLevel && ddl.charAt(i) == ',') { parts += ddl.substring(start, i); start = i + 1 }
    }
    parts += ddl.substring(start)
    parts.result()
  }

  /** Cuts `DEFAULT <expr>` (up to a top-level `COMMENT`, or the end) out of one column definition. */
  private[schema] def cutDefault(definition: String): (String, Option[String]) = {
    val keywords = topLevelWords(definition)
    keywords.find(_._2 == "DEFAULT") match {
      case None => (definition, None)
      case Some((at, _)) =>
        val end = keywords.collectFirst { case (i, "COMMENT") if i > at => i }.getOrElse(definition.length)
        val sql = definition.substring(at + "DEFAULT".length, end).trim
        if (sql.isEmpty)
          throw DrillErrors.badProvidedSchema(
            s"providedSchema: DEFAULT without a value in '${definition.trim}'"
          )
        (definition.substring(0, at) + definition.substring(end), Some(sql))
    }
  }

  /** Start offsets and upper-cased text of the words outside quotes, backticks and brackets. */
  private def topLevelWords(s: String): Seq[(Int, String)] = {
    val scanner = new Scanner(s)
    val words = Vector.newBuilder[(Int, String)]
    var wordStart = -1
    def close(end: Int): Unit = if (wordStart >= 0) {
      words += wordStart -> s.substring(wordStart, end).toUpperCase(Locale.ROOT)
      wordStart = -1
    }
    while (scanner.hasNext) {
      val (i, topLevel) = scanner.next()
      val c = s.charAt(i)
      if (topLevel && (Character.isLetterOrDigit(c) || c == '_')) { if (wordStart < 0) wordStart = i }
      else close(i)
    }
    close(s.length)
    words.result()
  }

  /** Walks a DDL string telling, for each character, whether it is outside quotes and brackets. */
  private final class Scanner(s: String) {
    private var i = 0
    private var quote: Char = 0
    private var depth = 0
    def hasNext: Boolean = i < s.length

    def next(): (Int, Boolean) = {
      val at = i
      val c = s.charAt(i)
      var topLevel = false
      if (quote != 0) {
        if (c == '\\' && quote != '`') i += 1 // escaped char inside a string literal
        else if (c == quote) quote = 0
      } else
        c match {
          case '\'' | '"' | '`' => quote = c
          case '<' | '(' => depth += 1
          case '>' | ')' => depth -= 1
          case _ => topLevel = depth == 0
        }
      i += 1
      (at, topLevel)
    }
  }
}
