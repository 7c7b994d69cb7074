package sparkdrill.fuzz

import java.util.concurrent.{CountDownLatch, TimeUnit}
import java.util.concurrent.atomic.AtomicReference

import scala.concurrent.duration.FiniteDuration

/** Runs one fuzz example on a daemon thread of its own and waits for it at most a given time: a hang fails
  * the property, naming the example, instead of blocking the suite, and the thread left behind cannot keep
  * the JVM alive. Whatever the example throws comes back as a value, fatal errors (StackOverflowError,
  * OutOfMemoryError) included, so that the property can say what it was.
  */
object Bounded {
  sealed trait Result[+T]
  final case class Done[T](value: T) extends Result[T]
  final case class Threw(error: Throwable) extends Result[Nothing]
  case object TimedOut extends Result[Nothing]

  // A deep stack, so that a StackOverflowError means unbounded recursion rather than a small default stack.
  private val StackBytes = 64L << 20

  def apply[T](limit: FiniteDuration)(body: => T): Result[T] = {
    val result = new AtomicReference[Result[T]](TimedOut)
    val finished = new CountDownLatch(1)
    val run: Runnable = () =>
      try result.set(Done(body))
      catch { case e: Throwable => result.set(Threw(e)) }
      finally finished.countDown()
    val thread = new Thread(null, run, "spark-drill-fuzz-example", StackBytes)
    thread.setDaemon(true)
    thread.start()
    if (finished.await(limit.toMillis, TimeUnit.MILLISECONDS)) result.get
    else {
      thread.interrupt()
      TimedOut
    }
  }
}
