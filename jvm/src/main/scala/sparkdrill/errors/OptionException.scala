package sparkdrill.errors

/** An option that is unknown, has no meaning here, or whose value does not parse, found at planning. An
  * IllegalArgumentException, as before it had a class; `option` is the option's name as given, `value` its
  * text when the value is what is wrong.
  */
final class OptionException(
    val errorClass: String,
    val reason: String,
    val option: String,
    val value: Option[String] = None
) extends IllegalArgumentException(s"[$errorClass] spark-drill: $reason")
    with SparkDrillError {
  def parameters: Map[String, String] = Map("reason" -> reason, "option" -> option) ++ value.map("value" -> _)
}
