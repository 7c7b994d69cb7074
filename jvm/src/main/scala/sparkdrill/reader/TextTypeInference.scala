package sparkdrill.reader

import java.time.{LocalDate, LocalDateTime}
import java.util.Locale

import org.apache.spark.sql.types._

/** `inferTypes=true` (SPEC 5): the narrowest type that every sampled, non-blank value of a column reads as.
  * Booleans are only `true`/`false` here (so a column of 0s and 1s is a number); numbers with a leading zero
  * (`007`) stay strings, since they are usually codes; a column with no value at all stays a string.
  */
private[sparkdrill] object TextTypeInference {

  private sealed abstract class Kind(val rank: Int, val dataType: DataType)
  private case object Empty extends Kind(0, NullType) // no value seen: the schema tracker decides
  private case object Bool extends Kind(1, BooleanType)
  private case object Int32 extends Kind(2, IntegerType)
  private case object Int64 extends Kind(3, LongType)
  private case object Float64 extends Kind(4, DoubleType)
  private case object Date extends Kind(5, DateType)
  private case object Timestamp extends Kind(6, TimestampType)
  private case object Text extends Kind(7, StringType)

  def infer(values: Iterator[String]): DataType =
    values.foldLeft(Empty: Kind)((k, v) => join(k, kindOf(v))).dataType

  /** The type of one value alone (`NullType` for a blank one): a VARIANT's member typed by `inferTypes`. */
  def typeOf(value: String): DataType = kindOf(value).dataType

  private def join(a: Kind, b: Kind): Kind = (a, b) match {
    case (Empty, x) => x
    case (x, Empty) => x
    case (x, y) if x == y => x
    case (x @ (Int32 | Int64 | Float64), y @ (Int32 | Int64 | Float64)) => if (x.rank > y.rank) x else y
    case (Date, Timestamp) | (Timestamp, Date) => Timestamp
    case _ => Text
  }

  private val Integer = """[+-]?(0|[1-9][0-9]*)""".r
  private val Decimal = """[+-]?(0|[1-9][0-9]*)?(\.[0-9]+)?([eE][+-]?[0-9]+)?""".r

  private def kindOf(raw: String): Kind = {
    val v = raw.trim
    if (v.isEmpty) Empty
    else
      v.toLowerCase(Locale.ROOT) match {
        case "true" | "false" => Bool
        case _ if Integer.pattern.matcher(v).matches() =>
          scala.util.Try(v.toLong).toOption match {
            case Some(n) if n >= Int.MinValue && n <= Int.MaxValue => Int32
            case Some(_) => Int64
            case None => Text
          }
        case _ if v.exists(_.isDigit) && Decimal.pattern.matcher(v).matches() && !hasLeadingZero(v) => Float64
        case _ if isDate(v) => Date
        case _ if isTimestamp(v) => Timestamp
        case _ => Text
      }
  }

  private def hasLeadingZero(v: String): Boolean = {
    val digits = v.dropWhile(c => c == '+' || c == '-')
    digits.length > 1 && digits.charAt(0) == '0' && digits.charAt(1) != '.'
  }

  private def isDate(v: String): Boolean =
    v.length == 10 && (try { LocalDate.parse(v); true }
    catch { case _: java.time.DateTimeException => false })

  private def isTimestamp(v: String): Boolean =
    v.length >= 19 && (try { LocalDateTime.parse(v.replace(' ', 'T')); true }
    catch { case _: java.time.DateTimeException => false })
}
