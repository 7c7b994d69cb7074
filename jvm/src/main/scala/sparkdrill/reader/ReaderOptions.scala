package sparkdrill.reader

import java.util.Locale
import sparkdrill.errors.DrillErrors

/** How an option's text becomes a typed value. Parsing happens once, at planning; executors only read the
  * values.
  */
abstract class OptionKind[T](val name: String) extends Serializable {

  /** The value, or an IllegalArgumentException naming the option and what it takes. */
  def parse(option: String, text: String): T

  /** A value as the option's text (for docs and other languages' option tables). */
  def show(value: T): String = value.toString

  /** The allowed values, for an enumeration. */
  def values: Seq[String] = Nil

  protected def bad(option: String, text: String, takes: String): Nothing =
    throw DrillErrors.badOptionValue(option, text, takes)
}

object OptionKind {
  object Bool extends OptionKind[Boolean]("boolean") {
    def parse(option: String, text: String): Boolean = text.trim.toLowerCase(Locale.ROOT) match {
      case "true" => true
      case "false" => false
      case _ => bad(option, text, "true or false")
    }
  }

  object Int32 extends OptionKind[Int]("int") {
    def parse(option: String, text: String): Int =
      scala.util.Try(text.trim.toInt).getOrElse(bad(option, text, "an integer"))
  }

  object Int64 extends OptionKind[Long]("long") {
    def parse(option: String, text: String): Long =
      scala.util.Try(text.trim.toLong).getOrElse(bad(option, text, "an integer"))
  }

  object Text extends OptionKind[String]("string") {
    def parse(option: String, text: String): String = text
  }

  /** One of a few words, matched case-insensitively, parsed once, at planning, into its value (a mode object,
    * or the word itself: [[Choice.words]]); `synonyms` are other spellings of a word (`dir` for `drill`).
    * Every enumeration option is one, so each fails the same way: "must be one of a, b, got 'c'".
    */
  final class Choice[T](choices: Seq[(String, T)], synonyms: Map[String, String] = Map.empty)
      extends OptionKind[T]("enum") {
    override def values: Seq[String] = choices.map(_._1)
    private val byWord: Map[String, T] = {
      val words = choices.map { case (w, v) => w.toLowerCase(Locale.ROOT) -> v }.toMap
      words ++ synonyms.map { case (s, w) => s.toLowerCase(Locale.ROOT) -> words(w.toLowerCase(Locale.ROOT)) }
    }
    def parse(option: String, text: String): T =
      byWord.getOrElse(
        text.trim.toLowerCase(Locale.ROOT),
        bad(option, text, s"one of ${values.mkString(", ")}")
      )
    override def show(value: T): String =
      choices.collectFirst { case (w, v) if v == value => w }.getOrElse(String.valueOf(value))
  }

  object Choice {

    /** Words that are their own values (`memoryMode`: offHeap, onHeap). */
    def words(words: String*): Choice[String] = new Choice(words.map(w => w -> w))
  }

  /** A Spark SQL type or schema in DDL, checked by the consumer at planning. */
  object Ddl extends OptionKind[String]("schema") {
    def parse(option: String, text: String): String = text
  }

  /** A timestamp like `2024-01-31T12:00:00`, in the session's zone: checked by the file lister. */
  object Timestamp extends OptionKind[String]("timestamp") {
    def parse(option: String, text: String): String = text
  }

  /** A duration as a number and a unit (`0s`, `30s`, `5m`, `2h`, `1d`, `250ms`); the value is milliseconds. */
  object Duration extends OptionKind[Long]("duration") {
    private val Units = Seq("ms" -> 1L, "s" -> 1000L, "m" -> 60000L, "h" -> 3600000L, "d" -> 86400000L)
    private val Pattern = """(?i)\s*(\d+)\s*(ms|s|m|h|d)\s*""".r
    def parse(option: String, text: String): Long = text match {
      case Pattern(n, unit) =>
        scala.util
          .Try(Math.multiplyExact(n.toLong, Units.toMap.apply(unit.toLowerCase(Locale.ROOT))))
          .getOrElse(bad(option, text, "a duration like 30s, 5m or 2h"))
      case _ => bad(option, text, "a duration like 30s, 5m or 2h")
    }
    override def show(value: Long): String =
      Units.reverse
        .collectFirst { case (u, ms) if value % ms == 0 => s"${value / ms}$u" }
        .getOrElse(s"${value}ms")
  }

  /** A size in bytes, with an optional binary unit (`1024`, `512k`, `64m`, `10g`, `1t`; `b` and `kb`, `mb`, ...
    * too, all powers of 1024 as Spark's own size options).
    */
  object Size extends OptionKind[Long]("size") {
    private val Units =
      Seq("" -> 1L, "k" -> (1L << 10), "m" -> (1L << 20), "g" -> (1L << 30), "t" -> (1L << 40))
    private val Pattern = """(?i)\s*(\d+)\s*([kmgt]?)b?\s*""".r
    def parse(option: String, text: String): Long = text match {
      case Pattern(n, unit) =>
        scala.util
          .Try(Math.multiplyExact(n.toLong, Units.toMap.apply(unit.toLowerCase(Locale.ROOT))))
          .toOption
          .filter(_ > 0)
          .getOrElse(bad(option, text, "a positive size like 512m or 10g"))
      case _ => bad(option, text, "a positive size like 512m or 10g")
    }
    override def show(value: Long): String =
      Units.reverse
        .collectFirst { case (u, b) if value % b == 0 => s"${value / b}$u" }
        .getOrElse(value.toString)
  }

  /** One single-byte character; control characters may be spelt `\t`, `\u0001`. */
  object OneByte extends OptionKind[Byte]("char") {
    def parse(option: String, text: String): Byte = {
      val bytes = Escapes.unescape(text).getBytes("UTF-8")
      if (bytes.length != 1)
        bad(option, text, s"a single one-byte character (it has ${bytes.length} bytes)")
      bytes(0)
    }
    override def show(value: Byte): String = Escapes.escape((value & 0xff).toChar.toString)
  }

  /** A single-byte character, or the empty string for none (-1): `quote=""` turns quoting off. */
  object OptionalByte extends OptionKind[Int]("char") {
    def parse(option: String, text: String): Int =
      if (text.isEmpty) -1 else OneByte.parse(option, text).toInt & 0xff
    override def show(value: Int): String = if (value < 0) "" else Escapes.escape(value.toChar.toString)
  }
}

/** Option values may spell control characters as `\t`, `\n`, `\r`, `\\`, or `\u0001`. */
object Escapes {

  /** Control characters as `\t`, `\u0001`: the inverse of [[unescape]]. */
  def escape(s: String): String = s.flatMap {
    case '\t' => "\\t"
    case '\n' => "\\n"
    case '\r' => "\\r"
    case '\\' => "\\\\"
    case c if c < ' ' => f"\\u${c.toInt}%04x"
    case c => c.toString
  }

  def unescape(s: String): String = {
    val out = new StringBuilder
    var i = 0
    while (i < s.length) {
      val c = s.charAt(i)
      if (c == '\\' && i + 1 < s.length) {
        s.charAt(i + 1) match {
          case 't' => out.append('\t'); i += 2
          case 'n' => out.append('\n'); i += 2
          case 'r' => out.append('\r'); i += 2
          case '\\' => out.append('\\'); i += 2
          case 'u' if i + 5 < s.length =>
            out.append(Integer.parseInt(s.substring(i + 2, i + 6), 16).toChar); i += 6
          case _ => out.append(c); i += 1
        }
      } else { out.append(c); i += 1 }
    }
    out.toString
  }
}

/** One read option: its name (as docs/options.md spells it), type, default (None: unset means "not given"),
  * a one-line doc, and the other names it answers to (Spark's csv/json names with the same meaning).
  */
final case class OptionSpec[T](
    name: String,
    kind: OptionKind[T],
    default: Option[T],
    doc: String,
    aliases: Seq[String] = Nil
) {
  val key: String = name.toLowerCase(Locale.ROOT)
}

object OptionSpec {
  def apply[T](name: String, kind: OptionKind[T], default: T, doc: String): OptionSpec[T] =
    OptionSpec(name, kind, Some(default), doc)

  def apply[T](
      name: String,
      kind: OptionKind[T],
      default: T,
      doc: String,
      aliases: Seq[String]
  ): OptionSpec[T] =
    OptionSpec(name, kind, Some(default), doc, aliases)

  /** An option without a default: unset means absent (`nullValue`, `columnNameOfCorruptRecord`, ...). */
  def optional[T](name: String, kind: OptionKind[T], doc: String, aliases: Seq[String] = Nil): OptionSpec[T] =
    OptionSpec(name, kind, None, doc, aliases)
}

/** A family of options sharing a prefix, one per column: `format.<column>` gives one column's date or
  * timestamp pattern.
  */
final case class PrefixOptionSpec(prefix: String, doc: String) {
  def key: String = prefix.toLowerCase(Locale.ROOT)
}

/** The read options, parsed and checked once at planning against the options the scan and its formats
  * declare ([[OptionSpec]]). Executors only look values up: nothing here is parsed again.
  *
  * @param values set options by lower-case canonical name, as typed values
  * @param prefixed `format.<column>` style options: prefix (lower case) -> (suffix as spelt -> value)
  * @param passThrough settings for Hadoop's FileSystem (`fs.s3a.endpoint`), as spelt
  */
final class ReaderOptions(
    values: Map[String, Any],
    prefixed: Map[String, Map[String, String]],
    val passThrough: Map[String, String]
) extends Serializable {

  /** The value set, else the default; an option without a default must be read with [[get]]. */
  def apply[T](spec: OptionSpec[T]): T =
    get(spec).getOrElse(throw DrillErrors.internal(s"option '${spec.name}' has no default: use get"))

  /** The value set, else the default, else None. */
  def get[T](spec: OptionSpec[T]): Option[T] =
    values.get(spec.key).map(_.asInstanceOf[T]).orElse(spec.default)

  /** Whether the user set the option (under any of its names). */
  def isSet(spec: OptionSpec[_]): Boolean = values.contains(spec.key)

  /** The options of one prefix family, by the suffix as spelt (`format.Day` -> `Day`). */
  def withPrefix(spec: PrefixOptionSpec): Map[String, String] = prefixed.getOrElse(spec.key, Map.empty)

  /** A copy with `spec` set (the scan fills in the session time zone, say). */
  def updated[T](spec: OptionSpec[T], value: T): ReaderOptions =
    new ReaderOptions(values.updated(spec.key, value), prefixed, passThrough)

  /** These options without `spec` (unset: its default, if any, applies). */
  def without(spec: OptionSpec[_]): ReaderOptions =
    new ReaderOptions(values - spec.key, prefixed, passThrough)

  override def toString: String = values.toSeq.sortBy(_._1).map { case (k, v) => s"$k=$v" }.mkString(", ")
}

object ReaderOptions {

  /** No option set: every default. */
  val defaults: ReaderOptions = new ReaderOptions(Map.empty, Map.empty, Map.empty)
}
