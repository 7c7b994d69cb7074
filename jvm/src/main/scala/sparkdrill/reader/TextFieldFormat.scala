package sparkdrill.reader

import org.apache.spark.sql.types.{DataType, StringType}

/** What a format on the record-reader template ([[RecordReader]]) takes for free when its fields are text:
  * the typing options (`inferTypes`, `nullValue`, `dateFormat`, `timestampFormat`, `format.<column>`) and
  * text's type inference over discovery's samples. A format mixes it in and adds its own options.
  */
trait TextFieldFormat extends FormatPlugin {

  /** The format's own options; the typing options join them. */
  def formatOptions: Seq[OptionSpec[_]]

  final override def options: Seq[OptionSpec[_]] = formatOptions ++ TextValueOptions.all
  override def prefixOptions: Seq[PrefixOptionSpec] = Seq(TextValueOptions.ColumnFormat)

  override def inferType(samples: Iterator[String], options: ReaderOptions): DataType =
    if (options(TextValueOptions.InferTypes)) TextTypeInference.infer(samples) else StringType
}
