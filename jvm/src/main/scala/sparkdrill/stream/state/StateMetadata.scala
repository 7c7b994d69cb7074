package sparkdrill.stream.state

import java.io.{FileNotFoundException, IOException}
import java.nio.charset.StandardCharsets

import com.fasterxml.jackson.databind.ObjectMapper
import org.apache.hadoop.fs.{FileSystem, Path}

/** `metadata.json`, written once at the stream's first start.
  *
  * `inputRoot` is informative only: tracked paths are stored relative to the root, so a user who moves the
  * input tree and the checkpoint together keeps a working stream, and a root that differs is no sign of
  * another stream. `includeExistingFiles` is enforced (StreamState.open): it decided what the first batch
  * read, and a restart that changed it would silently mean something else.
  */
private[sparkdrill] final case class StateMetadata(
    version: Int,
    inputRoot: String,
    includeExistingFiles: Boolean,
    createdAtMillis: Long
)

private[sparkdrill] object StateMetadata {
  val CurrentVersion = 1
  private val mapper = new ObjectMapper()

  def toJson(m: StateMetadata): String = {
    val node = mapper.createObjectNode()
    node.put("version", m.version)
    node.put("inputRoot", m.inputRoot)
    node.put("includeExistingFiles", m.includeExistingFiles)
    node.put("createdAtMillis", m.createdAtMillis)
    mapper.writeValueAsString(node)
  }

  def fromJson(json: String, where: Path): StateMetadata = {
    val node = mapper.readTree(json)
    def field(name: String) = Option(node.get(name)).getOrElse(throw new IOException(s"$where has no $name"))
    val version = field("version").asInt()
    if (version > CurrentVersion)
      throw new IOException(
        s"$where is format version $version, newer than this spark-drill reads ($CurrentVersion): " +
          "use the spark-drill that wrote this checkpoint, or a newer one"
      )
    StateMetadata(
      version,
      field("inputRoot").asText(),
      field("includeExistingFiles").asBoolean(),
      field("createdAtMillis").asLong()
    )
  }

  /** The metadata, or None when the state was never started there. */
  def read(fs: FileSystem, layout: StateLayout): Option[StateMetadata] =
    try {
      val in = fs.open(layout.metadata)
      val bytes =
        try {
          val out = new java.io.ByteArrayOutputStream()
          val buf = new Array[Byte](8192)
          var n = in.read(buf)
          while (n >= 0) { out.write(buf, 0, n); n = in.read(buf) }
          out.toByteArray
        } finally in.close()
      Some(fromJson(new String(bytes, StandardCharsets.UTF_8), layout.metadata))
    } catch { case _: FileNotFoundException => None }

  def write(writer: StateWriter, layout: StateLayout, m: StateMetadata): Unit =
    writer.writeNew(layout.metadata)(_.write(toJson(m).getBytes(StandardCharsets.UTF_8)))
}
