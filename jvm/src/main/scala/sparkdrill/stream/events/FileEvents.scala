package sparkdrill.stream.events

import java.net.URLDecoder
import java.nio.charset.StandardCharsets

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}

/** One object named by a bucket notification: `s3a://bucket/key` once the key is decoded. */
private[sparkdrill] final case class ObjectEvent(bucket: String, key: String, name: String, size: Long) {

  /** Whether the object was created (put, copied, posted, a multipart upload completed): the only events a
    * stream reads files for. Removals, restores, tagging and the like are ignored.
    */
  def created: Boolean = name.startsWith("ObjectCreated:") || name.startsWith("s3:ObjectCreated:")
}

/** What one queue message says, as [[FileEvents.parse]] reads it. */
private[sparkdrill] sealed trait EventMessage

private[sparkdrill] object EventMessage {

  /** Object events (S3's own body, or one an SNS topic wrapped). */
  final case class Objects(events: Seq[ObjectEvent]) extends EventMessage

  /** S3's test event, sent when a notification is configured: nothing to read. */
  case object TestEvent extends EventMessage

  /** A body that is none of those (another producer's message on the queue): ignored, and why. */
  final case class Unknown(reason: String) extends EventMessage
}

/** Reads S3 bucket-notification messages (SPEC 11.1): S3's JSON (`{"Records": [{"eventName":
  * "ObjectCreated:Put", "s3": {"bucket": {"name": ...}, "object": {"key": ..., "size": ...}}}]}`), the same
  * wrapped by an SNS topic (`{"Type": "Notification", "Message": "<S3's JSON as a string>"}`, unless the
  * subscription delivers raw messages), and S3's test event (`{"Event": "s3:TestEvent", ...}`). Keys come
  * URL-encoded as a form value (a space is `+`), as S3 sends them.
  */
private[sparkdrill] object FileEvents {
  private val mapper = new ObjectMapper()

  def parse(body: String): EventMessage =
    try fromJson(mapper.readTree(body), wrapped = false)
    catch { case NonFatal(e) => EventMessage.Unknown(s"not JSON: ${e.getMessage.takeWhile(_ != '\n')}") }

  private def fromJson(node: JsonNode, wrapped: Boolean): EventMessage =
    if (node == null || !node.isObject) EventMessage.Unknown("not a JSON object")
    else if (text(node, "Event").contains("s3:TestEvent")) EventMessage.TestEvent
    else if (!wrapped && text(node, "Type").contains("Notification") && node.has("Message"))
      fromJson(mapper.readTree(node.get("Message").asText()), wrapped = true)
    else if (node.has("Records") && node.get("Records").isArray)
      EventMessage.Objects(node.get("Records").elements().asScala.flatMap(record).toSeq)
    else EventMessage.Unknown("neither S3 records, an SNS notification nor S3's test event")

  private def record(r: JsonNode): Option[ObjectEvent] = {
    val s3 = r.path("s3")
    for {
      name <- text(r, "eventName")
      bucket <- text(s3.path("bucket"), "name")
      key <- text(s3.path("object"), "key")
    } yield ObjectEvent(bucket, decodeKey(key), name, s3.path("object").path("size").asLong(-1L))
  }

  /** S3 encodes a key as a form value: `+` is a space, `%2B` a plus. */
  def decodeKey(key: String): String = URLDecoder.decode(key, StandardCharsets.UTF_8.name())

  private def text(node: JsonNode, field: String): Option[String] =
    Option(node.get(field)).filter(_.isTextual).map(_.asText())
}
