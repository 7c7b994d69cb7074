package sparkdrill.scan

import java.util.Locale

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.io.compress.{CompressionCodec, CompressionCodecFactory}

/** Hadoop's compression codecs of a configuration, found by a file's name as `CompressionCodecFactory`
  * finds them (the codec whose extension is the greatest, in reversed lower-case order, before the reversed
  * lower-case name, if the name ends with it), without a Hadoop `Path` per file: parsing one is a URI
  * parse, a fifth of discovering a small file's header (issue 16).
  */
private[sparkdrill] final class Codecs private (conf: Configuration) {
  private val factory = new CompressionCodecFactory(conf)

  // Reversed lower-case extension -> codec, sorted: the factory's own table.
  private val byReversedExtension: java.util.TreeMap[String, CompressionCodec] = {
    val table = new java.util.TreeMap[String, CompressionCodec]()
    Option(CompressionCodecFactory.getCodecClasses(conf)).map(_.asScala).getOrElse(Nil).foreach { c =>
      Option(factory.getCodecByClassName(c.getName)).foreach { codec =>
        table.put(reversed(codec.getDefaultExtension), codec)
      }
    }
    table
  }

  /** The codec of the file at `path` (a full path or a name), or null: not compressed. */
  def forFile(path: String): CompressionCodec = {
    val name = reversed(path.substring(path.lastIndexOf('/') + 1))
    val before = byReversedExtension.lowerEntry(name)
    if (before != null && name.startsWith(before.getKey)) before.getValue else null
  }

  private def reversed(s: String): String = new StringBuilder(s).reverse.toString.toLowerCase(Locale.ROOT)
}

private[sparkdrill] object Codecs {
  // One table per configuration, not per file: building one reads the codec list and loads classes.
  private val tables = new PerConfiguration(new Codecs(_))

  def apply(conf: Configuration): Codecs = tables(conf)
}
