package sparkdrill.stream.schema

import sparkdrill.errors.DrillErrors

import java.io.{FileNotFoundException, IOException}
import java.nio.charset.StandardCharsets
import java.util.UUID

import scala.jdk.CollectionConverters._

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.spark.sql.types.{DataType, StructType}

/** One version of a stream's schema, as kept in its `schemaLocation` (SPEC 11, "Schema").
  *
  * @param schema the columns of `*` the stream reads, data columns then per-file ones
  * @param perFileColumns the names in `schema` that are per-file values (`dir0`, hive keys, parsers' columns)
  * @param columnsArray the one data column is headerless text's `columns` array (files bind by position)
  * @param inputPath the stream's input path, qualified: a version belongs to one input
  * @param fingerprint what, beyond the files, shaped the schema: the discovery options' fingerprint
  * @param cause the file that brought the change, for versions after the first
  * @param added the columns this version added to the one before
  * @param byPosition the input's files bind fields by position (headerless text), as found for version 0 and
  *   kept by every later one (none in a version written before it was kept: the stream then finds it again)
  */
private[sparkdrill] final case class SchemaVersion(
    version: Int,
    schema: StructType,
    perFileColumns: Seq[String],
    columnsArray: Boolean,
    inputPath: String,
    fingerprint: String,
    cause: Option[String],
    added: Seq[String],
    writtenAtMillis: Long,
    byPosition: Option[Boolean] = None
) {

  /** The user's `.schema(...)` (version -1), not a version kept in `schemaLocation`. */
  def definedByUser: Boolean = version < 0

  /** The data columns: what a micro-batch reads from its files under this schema. */
  def dataSchema: StructType = {
    val perFile = perFileColumns.map(_.toLowerCase(java.util.Locale.ROOT)).toSet
    StructType(schema.fields.filterNot(f => perFile(f.name.toLowerCase(java.util.Locale.ROOT))))
  }
}

/** The versions of a stream's schema in one directory of any Hadoop file system: `<n>.json`, written once each
  * (to a temporary name, then renamed; a version already there is never replaced), read newest first.
  */
private[sparkdrill] object SchemaVersions {
  private val mapper = new ObjectMapper()
  private val Name = """(\d+)\.json""".r

  /** The newest version in `dir`, if any. */
  def newest(dir: String, conf: Configuration): Option[SchemaVersion] = {
    val numbers = versionNumbers(dir, conf)
    if (numbers.isEmpty) None else Some(read(new Path(dir, s"${numbers.max}.json"), conf))
  }

  /** Every version in `dir`, oldest first. */
  def all(dir: String, conf: Configuration): Seq[SchemaVersion] =
    versionNumbers(dir, conf).sorted.map(n => read(new Path(dir, s"$n.json"), conf))

  private def versionNumbers(dir: String, conf: Configuration): Seq[Int] = {
    val path = new Path(dir)
    try
      path.getFileSystem(conf).listStatus(path).toSeq.map(_.getPath.getName).collect { case Name(n) =>
        n.toInt
      }
    catch { case _: FileNotFoundException => Nil }
  }

  /** Writes `v` as the next version in `dir`; fails when that version is already there. */
  def write(dir: String, v: SchemaVersion, conf: Configuration): Unit = {
    val path = new Path(dir)
    val fs = path.getFileSystem(conf)
    fs.mkdirs(path)
    val target = new Path(path, s"${v.version}.json")
    val temp = new Path(path, s".${v.version}.json.${UUID.randomUUID()}.tmp")
    val out = fs.create(temp, false)
    try out.write(toJson(v).getBytes(StandardCharsets.UTF_8))
    finally out.close()
    // Hadoop's local rename replaces a file silently: look first (one query holds the stream's lease).
    if (fs.exists(target) || !fs.rename(temp, target)) {
      fs.delete(temp, false)
      throw DrillErrors.schemaVersionTaken(dir, v.version)
    }
  }

  def read(file: Path, conf: Configuration): SchemaVersion = {
    val fs = file.getFileSystem(conf)
    val in = fs.open(file)
    val node =
      try mapper.readTree(in)
      catch {
        case e: IOException =>
          throw DrillErrors.schemaVersionUnreadable(file.toString, e)
      } finally in.close()
    def text(field: String): String = Option(node.get(field)).filterNot(_.isNull).map(_.asText).orNull
    def texts(field: String): Seq[String] =
      Option(node.get(field)).toSeq.flatMap(_.elements().asScala.map(_.asText))
    SchemaVersion(
      version = node.get("version").asInt,
      schema = DataType.fromJson(text("schema")).asInstanceOf[StructType],
      perFileColumns = texts("perFileColumns"),
      columnsArray = Option(node.get("columnsArray")).exists(_.asBoolean),
      inputPath = text("inputPath"),
      fingerprint = text("fingerprint"),
      cause = Option(text("cause")),
      added = texts("added"),
      writtenAtMillis = Option(node.get("writtenAt")).map(_.asLong).getOrElse(0L),
      byPosition = Option(node.get("byPosition")).filterNot(_.isNull).map(_.asBoolean)
    )
  }

  private def toJson(v: SchemaVersion): String = {
    val node = mapper.createObjectNode()
    node.put("version", v.version)
    node.put("inputPath", v.inputPath)
    node.put("schema", v.schema.json)
    v.perFileColumns.foldLeft(node.putArray("perFileColumns"))(_.add(_))
    node.put("columnsArray", v.columnsArray)
    node.put("fingerprint", v.fingerprint)
    v.cause match {
      case Some(c) => node.put("cause", c)
      case None => node.putNull("cause")
    }
    v.added.foldLeft(node.putArray("added"))(_.add(_))
    node.put("writtenAt", v.writtenAtMillis)
    v.byPosition.foreach(node.put("byPosition", _))
    mapper.writerWithDefaultPrettyPrinter().writeValueAsString(node: JsonNode)
  }
}
