package sparkdrill.formats.text

import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.{LocalSpark, TestFiles}

/** A timestamp written with its offset or zone is that instant, with a pattern or in ISO; one without is
  * wall-clock time in the session zone; timestamp_ntz keeps the wall-clock time.
  */
class TimestampOffsetSuite extends AnyFunSuite with TestFiles with LocalSpark {
  private def instants(schema: String, options: (String, String)*): Seq[String] =
    spark.read
      .format("drill")
      .options((Seq("header" -> "true", "providedSchema" -> schema) ++ options).toMap)
      .load(root.toString)
      .orderBy("n")
      .collect()
      .toSeq
      .map(r => String.valueOf(r.getAs[Any]("t")))

  test("a pattern with an offset (Apache's time) gives that instant") {
    write("a.csv" -> "n,t\n1,10/Oct/2000:13:55:36 -0700\n2,10/Oct/2000:13:55:36 +0000\n")
    val t = instants("n INT, t TIMESTAMP", "format.t" -> "dd/MMM/yyyy:HH:mm:ss Z")
    assert(t == Seq("2000-10-10 20:55:36.0", "2000-10-10 13:55:36.0"))
  }

  test(
    "ISO with Z, an offset or a zone id; without one, the session zone; timestamp_ntz ignores the offset"
  ) {
    write("a.csv" -> "n,t\n1,2024-01-31T12:00:00Z\n2,2024-01-31 12:00:00+02:00\n3,2024-01-31T12:00:00\n")
    assert(
      instants("n INT, t TIMESTAMP") == Seq(
        "2024-01-31 12:00:00.0",
        "2024-01-31 10:00:00.0",
        "2024-01-31 12:00:00.0"
      )
    )
    assert(
      instants("n INT, t TIMESTAMP_NTZ") == Seq("2024-01-31T12:00", "2024-01-31T12:00", "2024-01-31T12:00")
    )
  }

  test(
    "a zone with rules (timeZone=America/Los_Angeles): a value's own offset still wins; one without is LA's time"
  ) {
    write(
      "a.csv" -> ("n,t\n1,2024-01-31T12:00:00Z\n2,2024-01-31 12:00:00.25-07:00\n3,2024-01-31T12:00:00\n" +
        "4,2024-07-31 12:00\n5,2024-03-10 02:30:00\n")
    )
    assert(
      instants("n INT, t TIMESTAMP", "timeZone" -> "America/Los_Angeles") == Seq(
        "2024-01-31 12:00:00.0",
        "2024-01-31 19:00:00.25",
        "2024-01-31 20:00:00.0",
        "2024-07-31 19:00:00.0",
        "2024-03-10 10:30:00.0" // in the spring-forward gap: java.time moves it an hour on
      )
    )
  }
}
