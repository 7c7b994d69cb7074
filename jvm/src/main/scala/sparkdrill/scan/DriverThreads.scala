package sparkdrill.scan

import java.util.concurrent.{Callable, ExecutionException, LinkedBlockingQueue, ThreadPoolExecutor, TimeUnit}

/** A few driver threads for planning's I/O (issue 16): listing directories (an object store's listing
  * requests overlap) and discovering local files, which costs less here than a Spark job's tasks.
  */
private[sparkdrill] object DriverThreads {

  /** At most this many items run at once, the JVM over. */
  val Threads = 8

  private lazy val pool: ThreadPoolExecutor = {
    val counter = new java.util.concurrent.atomic.AtomicInteger()
    val pool = new ThreadPoolExecutor(
      Threads,
      Threads,
      30L,
      TimeUnit.SECONDS,
      new LinkedBlockingQueue[Runnable](),
      (task: Runnable) => {
        val t = new Thread(task, s"spark-drill-planning-${counter.incrementAndGet()}")
        t.setDaemon(true)
        t
      }
    )
    pool.allowCoreThreadTimeOut(true) // no threads left behind in an idle JVM
    pool
  }

  /** `f` of each item, in order; one item runs on the calling thread. The first failure is thrown, as `f`
    * threw it, after every item has finished.
    */
  def map[A, B](items: Seq[A])(f: A => B): Seq[B] =
    if (items.size <= 1) items.map(f)
    else {
      // The pool's threads were made by whichever thread came first; an item runs with the caller's context
      // class loader, which decides the formats it sees (a format from the user's jar: FormatRegistry).
      val loader = Thread.currentThread.getContextClassLoader
      val futures =
        items.map(item => pool.submit(new Callable[B] { def call(): B = withLoader(loader)(f(item)) }))
      val results = futures.map { future =>
        try Right(future.get())
        catch { case e: ExecutionException => Left(e.getCause) }
      }
      results.collectFirst { case Left(e) => e }.foreach(e => throw e)
      results.collect { case Right(b) => b }
    }

  private def withLoader[B](loader: ClassLoader)(body: => B): B = {
    val thread = Thread.currentThread
    val before = thread.getContextClassLoader
    thread.setContextClassLoader(loader)
    try body
    finally thread.setContextClassLoader(before)
  }
}
