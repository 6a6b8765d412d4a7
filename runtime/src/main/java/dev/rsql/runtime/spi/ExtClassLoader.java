package dev.rsql.runtime.spi;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The class loader of the jars in {@code ext/}: each jar has its own loader (parent: the engine's), so two jars may
 * bundle different versions of one library without clashing. Looking a class or resource up here asks the engine
 * first, then each jar in order; a class found in a jar is defined by that jar's loader, so everything it links to
 * resolves inside its own jar (and the engine). Service files of all jars are visible ({@code ServiceLoader}).
 */
public final class ExtClassLoader extends ClassLoader {

    /** How the loader of each jar is named ({@code ext:<jar file>}), as stack traces show it. */
    public static final String JAR_LOADER_PREFIX = "ext:";

    static {
        registerAsParallelCapable();
    }

    private final List<JarLoader> jars;

    public ExtClassLoader(List<Path> jarFiles, ClassLoader parent) throws IOException {
        super("rsql-ext", parent);
        List<JarLoader> loaders = new ArrayList<>();
        for (Path jar : jarFiles) {
            loaders.add(new JarLoader(jar, parent));
        }
        this.jars = List.copyOf(loaders);
    }

    /** The jars, in lookup order. */
    public List<Path> jars() {
        List<Path> paths = new ArrayList<>();
        jars.forEach(j -> paths.add(j.jar));
        return paths;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        for (JarLoader jar : jars) {
            Class<?> c = jar.findOwn(name);
            if (c != null) {
                return c;
            }
        }
        throw new ClassNotFoundException(name);
    }

    @Override
    protected URL findResource(String name) {
        for (JarLoader jar : jars) {
            URL url = jar.findResource(name);
            if (url != null) {
                return url;
            }
        }
        return null;
    }

    @Override
    protected Enumeration<URL> findResources(String name) throws IOException {
        Set<URL> urls = new LinkedHashSet<>();
        for (JarLoader jar : jars) {
            urls.addAll(Collections.list(jar.findResources(name)));
        }
        return Collections.enumeration(urls);
    }

    @Override
    public String toString() {
        return "ExtClassLoader" + jars();
    }

    /** Closes every jar (the classes loaded so far stay usable). */
    public void close() throws IOException {
        for (JarLoader jar : jars) {
            jar.close();
        }
    }

    /** One jar: parent-first to the engine, then the jar itself; never the other jars. */
    private static final class JarLoader extends URLClassLoader {

        static {
            registerAsParallelCapable();
        }

        private final Path jar;

        JarLoader(Path jar, ClassLoader parent) throws IOException {
            super(JAR_LOADER_PREFIX + jar.getFileName(), new URL[] {jar.toUri().toURL()}, parent);
            this.jar = jar;
        }

        /** The class if this jar has it (defining it on first use), else null. */
        Class<?> findOwn(String name) {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c != null) {
                    return c;
                }
                try {
                    return findClass(name);
                } catch (ClassNotFoundException e) {
                    return null;
                }
            }
        }
    }
}
