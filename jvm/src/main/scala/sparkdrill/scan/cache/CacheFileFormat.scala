package sparkdrill.scan.cache

import java.io.InputStream
import java.nio.charset.StandardCharsets
import java.util.zip.CRC32

import scala.util.control.NonFatal

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import org.apache.spark.sql.types.{DataType, StructType}

/** The lines of one `schemaCache` file. Each line is `<CRC32 of the JSON, 8 hex digits> <JSON>\n`, so a
  * torn write, a flipped bit or a stray edit spoils that line only, and is seen. The first line names the
  * format and its version; a schema line gives a schema an id local to the file (a tree's files mostly
  * share a few schemas, written once); a file line gives a file's key and the id of its schema, which a line
  * above it defines.
  *
  * {{{
  * 5b8e7a10 {"format":"spark-drill-discovery-cache","version":1}
  * 0c1d2e3f {"id":0,"schema":{"type":"struct","fields":[...]}}
  * 9a8b7c6d {"path":"file:/d/a.csv","length":12,"mtime":1717171717000,"format":"csv","fingerprint":"..",
  *           "schemaId":0}   (one line)
  * }}}
  */
private[sparkdrill] object CacheFileFormat {
  val Name = "spark-drill-discovery-cache"
  val Version = 1

  /** The suffix of cache files; no format reads it, so a cache inside a data tree is not read as data. */
  val Suffix = ".sdcache"

  /** A longer line is corrupt (a stray binary file must not fill the driver's heap). */
  val MaxLineBytes: Int = 64 << 20

  sealed trait Line
  final case class Header(version: Int) extends Line
  final case class SchemaLine(id: Int, schema: StructType) extends Line
  final case class FileLine(key: CacheKey, schemaId: Int) extends Line

  private val mapper = new ObjectMapper()
  private val Newline: Byte = '\n'.toByte

  /** The line, CRC and line end included. */
  def encode(line: Line): Array[Byte] = {
    val node = mapper.createObjectNode()
    line match {
      case Header(version) =>
        node.put("format", Name)
        node.put("version", version)
      case SchemaLine(id, schema) =>
        node.put("id", id)
        node.set[JsonNode]("schema", mapper.readTree(schema.json))
      case FileLine(key, schemaId) =>
        node.put("path", key.path)
        node.put("length", key.length)
        node.put("mtime", key.modificationTime)
        node.put("format", key.format)
        node.put("fingerprint", key.fingerprint)
        node.put("schemaId", schemaId)
    }
    val json = mapper.writeValueAsBytes(node)
    val crc = f"${crcOf(json, 0, json.length)}%08x".getBytes(StandardCharsets.US_ASCII)
    val out = new Array[Byte](crc.length + 1 + json.length + 1)
    System.arraycopy(crc, 0, out, 0, crc.length)
    out(crc.length) = ' '.toByte
    System.arraycopy(json, 0, out, crc.length + 1, json.length)
    out(out.length - 1) = Newline
    out
  }

  /** The line in `bytes(0 until length)` (its line end removed), or why it cannot be trusted. */
  def decode(bytes: Array[Byte], length: Int): Either[String, Line] =
    if (length < 10 || bytes(8) != ' '.toByte) Left("not a cache line")
    else {
      val stated =
        try Some(java.lang.Long.parseLong(new String(bytes, 0, 8, StandardCharsets.US_ASCII), 16))
        catch { case _: NumberFormatException => None }
      if (!stated.contains(crcOf(bytes, 9, length - 9))) Left("its CRC does not match")
      else {
        val node =
          try Option(mapper.readTree(bytes, 9, length - 9))
          catch { case NonFatal(_) => None }
        node.filter(_.isObject).toRight("not a JSON object").flatMap(interpret)
      }
    }

  private def interpret(node: JsonNode): Either[String, Line] =
    if (node.has("version"))
      (text(node, "format"), int(node, "version")) match {
        case (Some(Name), Some(v)) => Right(Header(v))
        case _ => Left("not a spark-drill discovery cache header")
      }
    else if (node.has("id"))
      int(node, "id").toRight("a schema line without an integer id").flatMap { id =>
        schema(node.get("schema")).map(SchemaLine(id, _))
      }
    else {
      val key = for {
        path <- text(node, "path")
        length <- long(node, "length")
        mtime <- long(node, "mtime")
        format <- text(node, "format")
        fingerprint <- text(node, "fingerprint")
      } yield CacheKey(path, length, mtime, format, fingerprint)
      (key, int(node, "schemaId")) match {
        case (Some(k), Some(id)) => Right(FileLine(k, id))
        case _ => Left("neither a schema nor a file line")
      }
    }

  private def schema(node: JsonNode): Either[String, StructType] =
    if (node == null || !node.isObject) Left("its schema is not a JSON object")
    else
      try
        DataType.fromJson(node.toString) match {
          case s: StructType => Right(s)
          case other => Left(s"its schema is a ${other.simpleString}, not a struct")
        }
      catch { case NonFatal(e) => Left(s"its schema does not parse (${e.getMessage})") }

  private def text(node: JsonNode, field: String): Option[String] =
    Option(node.get(field)).filter(_.isTextual).map(_.textValue)

  private def long(node: JsonNode, field: String): Option[Long] =
    Option(node.get(field)).filter(n => n.isIntegralNumber && n.canConvertToLong).map(_.asLong)

  private def int(node: JsonNode, field: String): Option[Int] =
    Option(node.get(field)).filter(n => n.isIntegralNumber && n.canConvertToInt).map(_.asInt)

  private def crcOf(bytes: Array[Byte], offset: Int, length: Int): Long = {
    val crc = new CRC32()
    crc.update(bytes, offset, length)
    crc.getValue
  }

  /** Hands each line of `in` to `f`, without its line end: `Some(bytes, length)` (the array is reused: read
    * it before returning), or None for a line longer than [[MaxLineBytes]], whose bytes are skipped. A last
    * line without a line end (a torn write) is handed over too; its CRC decides.
    */
  def foreachLine(in: InputStream)(f: Option[(Array[Byte], Int)] => Unit): Unit = {
    val chunk = new Array[Byte](64 << 10)
    var line = new Array[Byte](4096)
    var length = 0
    var tooLong = false
    var n = in.read(chunk)
    while (n >= 0) {
      var i = 0
      while (i < n) {
        val b = chunk(i)
        if (b == Newline) {
          f(if (tooLong) None else Some((line, length)))
          length = 0
          tooLong = false
        } else if (!tooLong) {
          if (length == MaxLineBytes) tooLong = true
          else {
            if (length == line.length)
              line = java.util.Arrays.copyOf(line, math.min(MaxLineBytes, length * 2))
            line(length) = b
            length += 1
          }
        }
        i += 1
      }
      n = in.read(chunk)
    }
    if (length > 0 || tooLong) f(if (tooLong) None else Some((line, length)))
  }
}
