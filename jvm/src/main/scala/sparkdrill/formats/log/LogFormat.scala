package sparkdrill.formats.log

import org.apache.spark.sql.types.{StringType, StructField, StructType}

import sparkdrill.reader._
import sparkdrill.reader.OptionKind._
import sparkdrill.errors.DrillErrors

/** `format=log` (SPEC 12): one record per line, its columns the named groups of a regular expression (`regex`)
  * or of a built-in pattern (`logPattern`: `common`, `combined`), typed like text. Written on the record-reader
  * template: this file and [[LogRecords]] are the whole format.
  */
private[sparkdrill] final class LogFormat extends TextFieldFormat {
  def name: String = "log"
  def suffixes: Seq[String] = Seq("log")
  def formatOptions: Seq[OptionSpec[_]] = Seq(LogFormat.Regex, LogFormat.Preset)

  // `.log` files are read as logs only when a pattern is given; else they are left out like any unknown suffix.
  override def claimsSuffix(options: ReaderOptions): Boolean =
    options.get(LogFormat.Regex).isDefined || options.get(LogFormat.Preset).isDefined

  // A pattern is checked whenever one is set; its absence only when `format=log` names this format.
  override def validate(options: ReaderOptions): Unit =
    if (claimsSuffix(options)) { LogFormat.pattern(options); () }
  override def validateNamed(options: ReaderOptions): Unit = { LogFormat.pattern(options); () }
  def sampleRows(options: ReaderOptions): Int = TextValueOptions.sampleRows(options)

  // The pattern's groups: without inferTypes, discovery opens no log file.
  override def knownSchema(options: ReaderOptions): Option[StructType] =
    Some(StructType(LogFormat.pattern(options).columns.map(StructField(_, StringType, nullable = true))))
  def splittable(options: ReaderOptions): Boolean = true

  def newReader(negotiator: SchemaNegotiator): BatchReader =
    new RecordReader(
      negotiator,
      new LogRecords(negotiator.file, LogFormat.pattern(negotiator.options))
    )
}

private[log] object LogFormat {
  val Regex: OptionSpec[String] =
    OptionSpec.optional(
      "regex",
      Text,
      "log format: a Java regular expression whose named groups are the columns"
    )
  val Preset: OptionSpec[String] = OptionSpec.optional(
    "logPattern",
    Choice.words(LogPattern.presets.keys.toSeq.sorted: _*),
    "log format: a built-in pattern instead of regex: common or combined (Apache/nginx access logs)"
  )

  /** The pattern the options give: exactly one of `regex` and `logPattern`. */
  // The last pattern compiled, by its options: discovery asks once per file, each task once per file, and a
  // pattern (a java.util.regex.Pattern, shareable across threads) is the same for all of them.
  @volatile private var last: ((Option[String], Option[String]), LogPattern) = _

  def pattern(options: ReaderOptions): LogPattern = {
    val key = (options.get(Regex), options.get(Preset))
    val seen = last
    if (seen != null && seen._1 == key) seen._2
    else {
      val made = compile(key)
      last = (key, made)
      made
    }
  }

  private def compile(key: (Option[String], Option[String])): LogPattern = key match {
    case (Some(r), None) => LogPattern.compile(r)
    case (None, Some(p)) => LogPattern.preset(p)
    case (None, None) =>
      throw DrillErrors.logNeedsAPattern()
    case (Some(_), Some(_)) =>
      throw DrillErrors.logPatternTwice()
  }
}
