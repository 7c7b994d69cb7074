package sparkdrill.scan

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.types.StructType
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.reader.{ScanException, TextValueOptions}

/** Delimited text discovers by its own code (`TextFormat.discover`): the schema it gives is the one a read of
  * the same records through the reader declares and samples (`throughReader`, the framework's generic
  * discovery), case by case: typing, null spellings, quoting, modes, sample limits, headers and their absence.
  */
class TextDiscoverySuite extends AnyFunSuite with TestFiles {
  private val conf = new Configuration()

  private def both(
      text: String,
      options: (String, String)*
  ): (Either[String, StructType], Either[String, StructType]) = {
    val path = write("f.csv" -> text).resolve("f.csv").toString
    val parsed = TableScan.parseOptions(options.toMap)
    val plugin = FormatRegistry.named("csv")
    def run(how: FileDiscovery => StructType): Either[String, StructType] = {
      val input = new HadoopFileInput(path, 0L, Long.MaxValue, conf)
      val context = new FileDiscovery(input, path, parsed, plugin.sampleRows(parsed), plugin)
      try Right(how(context))
      catch { case e: ScanException => Left(e.getMessage) }
      finally input.close()
    }
    (run(c => plugin.discover(c)), run(_.throughReader()))
  }

  private def same(text: String, options: (String, String)*): StructType = {
    val (own, reader) = both(text, options: _*)
    assert(own == reader, s"options $options")
    own.fold(e => fail(s"discovery failed: $e"), identity)
  }

  private val typed = Seq("header" -> "true", "inferTypes" -> "true")

  test("a header's names, each a string, without inferTypes; the columns array without a header") {
    assert(
      same("a, b ,,a\n1,2,3,4\n", "header" -> "true").simpleString ==
        "struct<a:string,b:string,column_3:string,a_2:string>"
    )
    assert(same("1,2\n3,4\n").simpleString == "struct<columns:array<string>>")
    assert(same("1,2\n3,4\n", "inferTypes" -> "true").simpleString == "struct<columns:array<string>>")
  }

  test("inferTypes types each column from the sample, as the read's converter sees each field") {
    val text = "i,l,d,b,dt,ts,s,n,z\n" +
      "1,3000000000,1.5,true,2024-01-02,2024-01-02T03:04:05,x,NA,007\n" +
      "NA,,2,false,,,\"\",,1\n"
    assert(
      same(text, typed: _*).simpleString ==
        "struct<i:string,l:bigint,d:double,b:boolean,dt:date,ts:timestamp,s:string,n:string,z:string>"
    )
    assert(
      same(text, typed :+ ("nullValue" -> "NA"): _*).simpleString ==
        "struct<i:int,l:bigint,d:double,b:boolean,dt:date,ts:timestamp,s:string,n:void,z:string>"
    )
    // A quoted empty field is emptyValue: a number column then holds text.
    assert(same("a\n1\n\"\"\n", typed :+ ("emptyValue" -> "none"): _*).simpleString == "struct<a:string>")
    assert(same("a\n1\n\"\"\n", typed: _*).simpleString == "struct<a:int>")
  }

  test("sampleRows bounds the sample; short rows, extra fields, blank and comment lines") {
    val text = "a,b\n1,2\n\n# c\n3\n4,5,6\nx,y\n"
    assert(
      same(text, typed ++ Seq("comment" -> "#", "sampleRows" -> "3"): _*).simpleString ==
        "struct<a:int,b:int>"
    )
    assert(same(text, typed :+ ("comment" -> "#"): _*).simpleString == "struct<a:string,b:string>")
    assert(same("skip me\na\n1\n", typed :+ ("skipFirstLine" -> "true"): _*).simpleString == "struct<a:int>")
    assert(same("", typed: _*).isEmpty)
    assert(same("a,b\n", typed: _*).simpleString == "struct<a:void,b:void>")
  }

  test("a record whose quote never closes: FAILFAST fails discovery alike, the other modes sample past it") {
    val text = "a,b\n1,2\n3,\"open\n"
    val (own, reader) = both(text, typed :+ ("mode" -> "FAILFAST"): _*)
    assert(own.isLeft && own == reader, own)
    assert(own.left.get.contains("line 3"), own)
    for (mode <- Seq("PERMISSIVE", "DROPMALFORMED"))
      assert(same(text, typed :+ ("mode" -> mode): _*).simpleString == "struct<a:int,b:int>")
  }

  test("an unterminated quote in the header fails discovery alike") {
    val (own, reader) = both("\"a,b\n1,2\n", "header" -> "true")
    assert(own.isLeft && own == reader, own)
    assert(own.left.get.contains("unterminated quote in the header line"), own)
  }

  test("the sample's converter is the read's: nullValue applies before typing, not after") {
    assert(TextValueOptions.sampleRows(TableScan.parseOptions(Map("inferTypes" -> "true"))) > 0)
    assert(same("a\n-\n2\n", typed :+ ("nullValue" -> "-"): _*).simpleString == "struct<a:int>")
  }
}
