package dev.rsql.runtime.spi;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** Loads service providers, skipping (and logging) broken ones so one bad jar in ext/ does not stop the engine. */
public final class Providers {

    private static final Logger LOG = LoggerFactory.getLogger(Providers.class);

    private Providers() {
    }

    public static <T> List<T> load(Class<T> service, ClassLoader classLoader) {
        List<T> found = new ArrayList<>();
        Iterator<T> it = ServiceLoader.load(service, classLoader).iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                found.add(it.next());
            } catch (ServiceConfigurationError e) {
                LOG.warn("ignoring a broken {} provider: {}", service.getSimpleName(), e.getMessage());
            }
        }
        return found;
    }
}
