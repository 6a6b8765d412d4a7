package dev.rsql.runtime.exec.exchange;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The input of one downstream partition task: one {@link Channel} per upstream task that writes to it. */
public final class InputGate {

    private final List<Channel> channels = new CopyOnWriteArrayList<>();
    private volatile Runnable availabilityListener = () -> { };

    /** Called by the downstream task: run when elements arrive. */
    public void setAvailabilityListener(Runnable listener) {
        this.availabilityListener = listener;
    }

    Channel addChannel(Runnable upstreamWakeup, long firstCheckpoint) {
        Channel c = new Channel(this, upstreamWakeup, firstCheckpoint);
        channels.add(c);
        notifyAvailable();
        return c;
    }

    void notifyAvailable() {
        availabilityListener.run();
    }

    /** The channels, in the order they were connected (new ones may appear while the job runs). */
    public List<Channel> channels() {
        return channels;
    }
}
