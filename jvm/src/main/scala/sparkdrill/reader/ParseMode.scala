package sparkdrill.reader

/** What a reader does with a malformed record or an unconvertible value (SPEC 6). */
sealed abstract class ParseMode(val name: String) extends Serializable

object ParseMode {

  /** A malformed record becomes all nulls; an unconvertible value becomes null in its column only. */
  case object Permissive extends ParseMode("PERMISSIVE")

  /** Malformed records are dropped and counted. */
  case object DropMalformed extends ParseMode("DROPMALFORMED")

  /** The query fails, naming the file, line, column and value. */
  case object FailFast extends ParseMode("FAILFAST")

  val all: Seq[ParseMode] = Seq(Permissive, DropMalformed, FailFast)

  /** The option advice an error carries. */
  def advice(mode: ParseMode): String = mode match {
    case FailFast => "mode=FAILFAST; mode=PERMISSIVE keeps the record with nulls, mode=DROPMALFORMED drops it"
    case other => s"mode=${other.name}"
  }
}
