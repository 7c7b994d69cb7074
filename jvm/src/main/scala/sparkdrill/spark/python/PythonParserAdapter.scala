package sparkdrill.spark.python

import java.util.concurrent.{Executors, ThreadFactory, TimeoutException}

import scala.concurrent.{Await, ExecutionContext, Future}
import scala.concurrent.duration._
import scala.jdk.CollectionConverters._

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import com.fasterxml.jackson.databind.node.JsonNodeFactory
import org.apache.spark.sql.catalyst.expressions.{Cast, EvalMode, Literal}
import org.apache.spark.sql.types.{DataType, StringType, StructField}
import org.apache.spark.unsafe.types.UTF8String

import sparkdrill.errors.{DrillErrors, SparkDrillError}
import sparkdrill.scan.Distinct
import sparkdrill.projection.{
  ColumnParser,
  FileInfo,
  ParseContext,
  ParsedColumn,
  ParsedKind,
  RequestedColumn,
  Shape
}

/** A Python column parser as the scan's [[ColumnParser]]. Values come back as text and are cast to the
  * column's type with Spark's own cast (a date as `2024-01-31`, a timestamp as ISO text in the session's
  * zone unless it names one). Held by the driver's table plan only; never shipped to executors.
  *
  * @param timeoutMillis how long one call may take (0: no limit). A parser that hangs fails the load or the
  *   query naming it instead of blocking the driver; its Python thread is left to finish on its own.
  */
private object NullValue

private[sparkdrill] final class PythonParserAdapter(
    @transient private val proxy: PythonColumnParser,
    timeZone: String,
    timeoutMillis: Long
) extends ColumnParser {
  private val mapper = new ObjectMapper()

  val id: String = proxy.id()

  /** Column names the parser serves as hidden columns. */
  private lazy val listed: Seq[String] =
    mapper.readTree(call("listing its columns", proxy.columns())).elements().asScala.map(_.asText).toVector

  override def hiddenColumns(context: ParseContext): Seq[ParsedColumn] =
    listed.flatMap(name => parse(RequestedColumn(name, Shape.Whole), context))

  // Python is asked once per name and once per (column, file) for the life of the parser: every query on
  // every table reuses the answers (a Py4J round trip costs far more than a lookup).
  private val claims = new java.util.concurrent.ConcurrentHashMap[String, Option[ParsedColumn]]()
  private val answers = new java.util.concurrent.ConcurrentHashMap[(String, String), Any]()

  def parse(column: RequestedColumn, context: ParseContext): Option[ParsedColumn] = column.shape match {
    case Shape.Whole => claims.computeIfAbsent(column.name, name => ask(name))
    case _ => None
  }

  private def ask(name: String): Option[ParsedColumn] =
    Option(call(s"parsing column '$name'", proxy.parse(name))).map { json =>
      val answer = mapper.readTree(json)
      if (answer.has("error"))
        throw DrillErrors.columnParserRaised(id, name, answer.get("error").asText)
      val ddl = answer.get("type").asText
      val dataType =
        try DataType.fromDDL(ddl)
        catch {
          case e: Exception =>
            throw DrillErrors.columnParserBadType(id, name, ddl, e)
        }
      ParsedColumn(StructField(name, dataType), ParsedKind.Custom(id))
    }

  def value(column: ParsedColumn, file: FileInfo): Any = values(column, Seq(file)).head

  override def values(column: ParsedColumn, files: Seq[FileInfo]): Seq[Any] = {
    val missing = Distinct.by(files.filterNot(f => answers.containsKey(column.name -> f.path)))(_.path)
    if (missing.nonEmpty)
      missing.zip(askValues(column, missing)).foreach { case (f, v) =>
        answers.put(column.name -> f.path, if (v == null) NullValue else v)
      }
    files.map(f =>
      answers.get(column.name -> f.path) match {
        case NullValue => null
        case v => v
      }
    )
  }

  private def askValues(column: ParsedColumn, files: Seq[FileInfo]): Seq[Any] = {
    val request = JsonNodeFactory.instance.arrayNode()
    files.foreach { f =>
      val node = request.addObject()
      node.put("path", f.path).put("length", f.length).put("modificationTime", f.modificationTime)
      val dirs = node.putArray("dirs")
      f.dirs.foreach(dirs.add)
    }
    val answers =
      mapper.readTree(call(s"reading column '${column.name}'", proxy.values(column.name, request.toString)))
    if (answers.size != files.size)
      throw DrillErrors.internal(s"column parser '$id' gave ${answers.size} values for ${files.size} files")
    files.zip(answers.elements().asScala.toVector).map { case (file, answer) =>
      toInternal(column, file, answer)
    }
  }

  private def toInternal(column: ParsedColumn, file: FileInfo, answer: JsonNode): Any =
    if (answer.has("error"))
      throw DrillErrors.columnParserRaisedOnFile(id, file.path, column.name, answer.get("error").asText)
    else {
      val text = answer.get("value")
      if (text == null || text.isNull) null
      else if (column.dataType == StringType) UTF8String.fromString(text.asText)
      else {
        val cast = Cast(
          Literal(UTF8String.fromString(text.asText), StringType),
          column.dataType,
          Some(timeZone),
          EvalMode.TRY
        )
        val converted = cast.eval()
        if (converted == null)
          throw DrillErrors.columnParserWrongValue(
            id,
            file.path,
            column.name,
            column.dataType.simpleString,
            text.asText
          )
        converted
      }
    }

  // Py4J reports a failed callback (the Python process gone, say) as a RuntimeException: name the parser.
  private def call(what: String, result: => String): String =
    try
      if (timeoutMillis <= 0) result
      else Await.result(Future(result)(PythonParserAdapter.callers), timeoutMillis.millis)
    catch {
      case _: TimeoutException =>
        throw DrillErrors.columnParserTimeout(id, timeoutMillis / 1000.0, what)
      // Ours (a parser's classed error) passes as it is; Py4J's gets the parser's name.
      case e: RuntimeException if !e.isInstanceOf[SparkDrillError] =>
        throw DrillErrors.columnParserCallFailed(id, what, e)
    }
}

private object PythonParserAdapter {
  // Calls wait on these threads so the planning thread can stop waiting; a hung call keeps its thread
  // (a daemon) until Python answers.
  private val callers: ExecutionContext = ExecutionContext.fromExecutorService(
    Executors.newCachedThreadPool(new ThreadFactory {
      def newThread(r: Runnable): Thread = {
        val t = new Thread(r, "spark-drill-python-parser-call")
        t.setDaemon(true)
        t
      }
    })
  )
}
