package sparkdrill.stream.events

import java.net.URI

import scala.annotation.nowarn
import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import software.amazon.awssdk.auth.credentials.{
  AwsBasicCredentials,
  AwsCredentialsProvider,
  AwsSessionCredentials,
  DefaultCredentialsProvider,
  StaticCredentialsProvider
}
import software.amazon.awssdk.http.apache.ApacheHttpClient
import software.amazon.awssdk.regions.Region
import software.amazon.awssdk.services.sqs.SqsClient
import software.amazon.awssdk.services.sqs.model._

import sparkdrill.stream.QueueSettings

/** An SQS queue through the AWS SDK v2 (the bundle S3A already needs). Batch calls take at most ten
  * entries, so deletes and visibility changes go ten at a time; an entry the queue refuses (a handle that
  * expired because the message was delivered again) is left to the next delivery, which the file log makes
  * harmless.
  */
private[sparkdrill] final class SqsQueue(client: SqsClient, queueUrl: String) extends EventQueue {

  override def receive(max: Int, invisibleSeconds: Int): Seq[QueueMessage] =
    client
      .receiveMessage(
        ReceiveMessageRequest
          .builder()
          .queueUrl(queueUrl)
          .maxNumberOfMessages(math.max(1, math.min(max, SqsQueue.MaxBatch)))
          .visibilityTimeout(invisibleSeconds)
          .waitTimeSeconds(0)
          .build()
      )
      .messages()
      .asScala
      .map(m => QueueMessage(m.messageId(), m.receiptHandle(), m.body()))
      .toSeq

  override def delete(handles: Seq[String]): Unit =
    handles.grouped(SqsQueue.MaxBatch).foreach { group =>
      val entries = group.zipWithIndex.map { case (h, i) =>
        DeleteMessageBatchRequestEntry.builder().id(i.toString).receiptHandle(h).build()
      }
      client.deleteMessageBatch(
        DeleteMessageBatchRequest.builder().queueUrl(queueUrl).entries(entries.asJava).build()
      )
    }

  override def keepInvisible(handles: Seq[String], seconds: Int): Unit =
    handles.grouped(SqsQueue.MaxBatch).foreach { group =>
      val entries = group.zipWithIndex.map { case (h, i) =>
        ChangeMessageVisibilityBatchRequestEntry
          .builder()
          .id(i.toString)
          .receiptHandle(h)
          .visibilityTimeout(seconds)
          .build()
      }
      client.changeMessageVisibilityBatch(
        ChangeMessageVisibilityBatchRequest.builder().queueUrl(queueUrl).entries(entries.asJava).build()
      )
    }

  override def approximateSize(): Option[Long] = {
    val attributes = client
      .getQueueAttributes(
        GetQueueAttributesRequest
          .builder()
          .queueUrl(queueUrl)
          .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)
          .build()
      )
      .attributes()
    Option(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).map(_.toLong)
  }

  override def close(): Unit = client.close()
}

private[sparkdrill] object SqsQueue {
  val MaxBatch = 10

  /** The queue at `queueUrl`, reached as a read reaches S3: region and credentials from the S3A settings
    * of `conf` (the session's Hadoop configuration with the stream's own `fs.s3a.*` options), the bucket's
    * own settings (`fs.s3a.bucket.<bucket>.*`) first; `queueRegion` and `queueEndpoint` override them. The
    * endpoint is the queue URL's own host unless `queueEndpoint` names another (a VPC endpoint).
    */
  // Apache's HTTP client 4 is deprecated in the newest SDKs for their client 5, which the bundle beside
  // hadoop-aws (2.35.x) does not have; S3A itself uses this one.
  @nowarn("cat=deprecation")
  def open(
      queueUrl: String,
      bucket: String,
      conf: Configuration,
      region: Option[String],
      endpoint: Option[String]
  ): SqsQueue = {
    val url = QueueSettings.uri(queueUrl)
    def s3a(key: String): Option[String] =
      Option(conf.getTrimmed(s"fs.s3a.bucket.$bucket.$key"))
        .orElse(Option(conf.getTrimmed(s"fs.s3a.$key")))
        .filter(_.nonEmpty)
    val regionName = region
      .orElse(regionOfHost(url.getHost))
      .orElse(s3a("endpoint.region"))
      .getOrElse("us-east-1")
    val endpointUri = endpoint
      .map(URI.create)
      .getOrElse(new URI(url.getScheme, null, url.getHost, url.getPort, null, null, null))
    val credentials: AwsCredentialsProvider = (s3a("access.key"), s3a("secret.key")) match {
      case (Some(access), Some(secret)) =>
        StaticCredentialsProvider.create(s3a("session.token") match {
          case Some(token) => AwsSessionCredentials.create(access, secret, token)
          case None => AwsBasicCredentials.create(access, secret)
        })
      case _ => DefaultCredentialsProvider.builder().build()
    }
    val client = SqsClient
      .builder()
      .httpClientBuilder(ApacheHttpClient.builder())
      .region(Region.of(regionName))
      .endpointOverride(endpointUri)
      .credentialsProvider(credentials)
      .build()
    new SqsQueue(client, queueUrl)
  }

  /** `sqs.<region>.amazonaws.com` (and `.amazonaws.com.cn`) name their region. */
  def regionOfHost(host: String): Option[String] = {
    val parts = host.split('.')
    if (parts.length >= 4 && parts(0) == "sqs" && parts(2) == "amazonaws") Some(parts(1)) else None
  }
}
