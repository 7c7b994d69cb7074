package sparkdrill.tags;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.scalatest.TagAnnotation;

/**
 * A suite that `make test-fast` leaves out: it starts many Spark jobs or runs generated inputs by the
 * hundred. `make test` runs every suite; `dev/sbt "testOnly -- -l sparkdrill.tags.Slow"` runs the others.
 */
@TagAnnotation
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Slow {}
