package sparkdrill.stream.events

/** A message as the queue handed it over: `handle` is what deleting it or extending its invisibility takes
  * (a new one at each delivery).
  */
private[sparkdrill] final case class QueueMessage(id: String, handle: String, body: String)

/** A queue of file events, as the event source uses it: receive, delete once done, keep invisible while a
  * file waits. SQS is one ([[SqsQueue]]); Google Pub/Sub (pull, ack, modifyAckDeadline) and Azure Queue
  * Storage (get, delete, update visibility) map onto the same four calls (docs/object-stores.md).
  */
private[sparkdrill] trait EventQueue extends AutoCloseable {

  /** Up to `max` messages now, each hidden from other receivers for `invisibleSeconds`; empty when none
    * is waiting (no long wait: a trigger must not block on an idle queue).
    */
  def receive(max: Int, invisibleSeconds: Int): Seq[QueueMessage]

  /** Deletes messages for good (their files' micro-batches committed, or they named nothing to read). */
  def delete(handles: Seq[String]): Unit

  /** Keeps messages hidden `seconds` more from now (their files are waiting for a micro-batch). */
  def keepInvisible(handles: Seq[String], seconds: Int): Unit

  /** Messages waiting, as the queue estimates it; None when it cannot say. */
  def approximateSize(): Option[Long]
}
