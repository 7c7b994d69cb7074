package sparkdrill.stream.events

import java.time.ZoneOffset

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.scan.{FileLister, TableScan}

class FileEventsSuite extends AnyFunSuite with TestFiles {

  private def s3(records: String*): String = s"""{"Records": [${records.mkString(",")}]}"""

  private def record(key: String, name: String = "ObjectCreated:Put", bucket: String = "landing"): String =
    s"""{"eventVersion": "2.1", "eventSource": "aws:s3", "eventName": "$name",
       |  "s3": {"bucket": {"name": "$bucket"}, "object": {"key": "$key", "size": 42, "eTag": "x"}}}""".stripMargin

  test("S3's body: each record's bucket, decoded key, event name and size") {
    FileEvents.parse(
      s3(record("in/a.csv"), record("in/d/b.csv", "ObjectCreated:CompleteMultipartUpload"))
    ) match {
      case EventMessage.Objects(events) =>
        assert(
          events.map(e => (e.bucket, e.key, e.size)) == Seq(
            ("landing", "in/a.csv", 42L),
            ("landing", "in/d/b.csv", 42L)
          )
        )
        assert(events.forall(_.created))
      case other => fail(s"$other")
    }
  }

  test("keys come encoded as a form value: + is a space, %2B a plus, %C3%A9 an é") {
    FileEvents.parse(s3(record("in/a+b%2Bc+%C3%A9t%C3%A9.csv"))) match {
      case EventMessage.Objects(Seq(e)) => assert(e.key == "in/a b+c été.csv")
      case other => fail(s"$other")
    }
  }

  test("an SNS notification wrapping S3's body is read as S3's body") {
    val inner = s3(record("in/a.csv")).replace("\"", "\\\"").replace("\n", " ")
    val wrapped =
      s"""{"Type": "Notification", "MessageId": "m", "TopicArn": "arn:aws:sns:us-east-1:1:t", "Message": "$inner"}"""
    FileEvents.parse(wrapped) match {
      case EventMessage.Objects(Seq(e)) => assert(e.key == "in/a.csv" && e.created)
      case other => fail(s"$other")
    }
  }

  test("S3's test event, plain or wrapped by SNS, is a test event") {
    val test =
      """{"Service": "Amazon S3", "Event": "s3:TestEvent", "Time": "2026-12-02T10:00:00Z", "Bucket": "b"}"""
    assert(FileEvents.parse(test) == EventMessage.TestEvent)
    val wrapped = s"""{"Type": "Notification", "Message": "${test.replace("\"", "\\\"")}"}"""
    assert(FileEvents.parse(wrapped) == EventMessage.TestEvent)
  }

  test("removals and other events are not created objects; foreign messages are unknown, with a reason") {
    FileEvents.parse(
      s3(record("in/a.csv", "ObjectRemoved:Delete"), record("in/b.csv", "s3:ObjectCreated:Copy"))
    ) match {
      case EventMessage.Objects(events) => assert(events.map(_.created) == Seq(false, true))
      case other => fail(s"$other")
    }
    Seq("not json", "[1, 2]", """{"hello": "world"}""", """{"Type": "Notification", "Message": "no"}""")
      .foreach { body =>
        FileEvents.parse(body) match {
          case EventMessage.Unknown(reason) => assert(reason.nonEmpty, body)
          case other => fail(s"$body: $other")
        }
      }
    // A record without its key is left out; the others stay.
    FileEvents.parse(
      s3("""{"eventName": "ObjectCreated:Put", "s3": {"bucket": {"name": "b"}}}""", record("in/c.csv"))
    ) match {
      case EventMessage.Objects(events) => assert(events.map(_.key) == Seq("in/c.csv"))
      case other => fail(s"$other")
    }
  }

  test("a queue URL's host names its region; others do not") {
    assert(SqsQueue.regionOfHost("sqs.eu-west-3.amazonaws.com").contains("eu-west-3"))
    assert(SqsQueue.regionOfHost("sqs.cn-north-1.amazonaws.com.cn").contains("cn-north-1"))
    assert(SqsQueue.regionOfHost("127.0.0.1").isEmpty)
    assert(SqsQueue.regionOfHost("localhost").isEmpty)
  }

  test("FileLister.select takes, of files named one by one, what a listing of the path would take") {
    write(
      "in/a.csv" -> "x\n1\n",
      "in/d/b.json" -> "{}\n",
      "in/.hidden.csv" -> "x\n",
      "in/_tmp/c.csv" -> "x\n",
      "in/d/.h/e.csv" -> "x\n",
      "in/notes.unknown" -> "x\n",
      "other/f.csv" -> "x\n",
      "in2/g.csv" -> "x\n"
    )
    val conf = new Configuration()
    val fs = new Path("file:///").getFileSystem(conf)
    val named = Seq(
      "in/a.csv",
      "in/d/b.json",
      "in/.hidden.csv",
      "in/_tmp/c.csv",
      "in/d/.h/e.csv",
      "in/notes.unknown",
      "other/f.csv",
      "in2/g.csv"
    ).map(rel => fs.getFileStatus(new Path("file:" + root.resolve(rel))))
    def both(path: String, options: (String, String)*) = {
      val parsed = TableScan.parseOptions(options.toMap)
      val selected = FileLister.select(Seq(path), named, conf, parsed, ZoneOffset.UTC)
      def plain(files: Seq[sparkdrill.scan.ScanFile]) =
        files.map(f => (f.path, f.length, f.modificationTime, f.dirs.toSeq, f.format))
      assert(plain(selected) == plain(FileLister.list(Seq(path), conf, parsed, ZoneOffset.UTC)), path)
      selected.map(f => f.path.substring(f.path.lastIndexOf("/in")) -> f.dirs.toSeq)
    }
    assert(both("file:" + root.resolve("in")) == Seq("/in/a.csv" -> Nil, "/in/d/b.json" -> Seq("d")))
    // dirN count from the glob's deepest plain directory, as in a listing.
    assert(both("file:" + root + "/in*/*.csv") == Seq("/in/a.csv" -> Seq("in"), "/in2/g.csv" -> Seq("in2")))
    assert(
      both("file:" + root.resolve("in"), "pathGlobFilter" -> "*.json") == Seq("/in/d/b.json" -> Seq("d"))
    )
  }
}
