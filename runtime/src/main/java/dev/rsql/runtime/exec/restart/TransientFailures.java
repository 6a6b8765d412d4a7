package dev.rsql.runtime.exec.restart;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.connector.jdbc.JdbcErrors;
import dev.rsql.runtime.exec.RecordException;
import dev.rsql.runtime.graph.FunctionException;
import dev.rsql.runtime.rocketmq.RocketMqRetry;
import dev.rsql.runtime.state.StateException;
import org.apache.rocketmq.client.common.ClientErrorCode;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.exception.RequestTimeoutException;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.apache.rocketmq.remoting.protocol.ResponseCode;

import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * Which job failures a restart from the last checkpoint can cure: those caused by the broker or name server being
 * unreachable, busy or slow (connections refused or lost, send, pull and commit timeouts, no route while the broker
 * re-registers), also when they reach the job as a checkpoint that could not be committed or a shuffle or state
 * queue that could not be written; and a database connection lost or refused, a deadlock or lock wait timeout
 * ({@link JdbcErrors}). Everything else ends the job: a bad record under the {@code fail} policy, a plan
 * or configuration error, a UDF failure, a state store or state directory that cannot be read or written, and
 * whatever is not known to go away by itself.
 *
 * <p>The cause chain is read from the outside in and the first link that decides wins: a UDF that failed because its
 * own HTTP call timed out is a UDF failure, not a broker outage.
 */
public final class TransientFailures {

    private TransientFailures() {
    }

    public static boolean isTransient(Throwable failure) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable t = failure; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            if (t instanceof RecordException || t instanceof ConfigException || t instanceof FunctionException
                    || t instanceof StateException || t instanceof Error) {
                return false;
            }
            if (t instanceof MQClientException && (isTransientClientCode(((MQClientException) t).getResponseCode())
                    || isBrokerMissing((MQClientException) t))) {
                return true;
            }
            // Kafka's timeouts, lost connections, leader moves and coordinator changes.
            if (t instanceof org.apache.kafka.common.errors.RetriableException) {
                return true;
            }
            if (t instanceof SQLException) {
                return JdbcErrors.isTransient((SQLException) t);
            }
            if (t instanceof MQBrokerException) {
                return RocketMqRetry.isTransient(t);
            }
            if (t instanceof RemotingException || t instanceof RequestTimeoutException || t instanceof TimeoutException
                    || t instanceof SocketException || t instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /**
     * A send to a broker the route no longer lists: the broker unregistered from the name server (it is stopping or
     * restarting). The client raises it with no code and no cause, so only its text tells.
     */
    private static boolean isBrokerMissing(MQClientException e) {
        String m = e.getErrorMessage();
        return m != null && m.startsWith("The broker[") && m.endsWith("] not exist");
    }

    /**
     * Client-side codes of an unreachable or slow broker or name server; "no route" and "topic not exist" from the name
     * server too, as it has no route for a topic until the broker that has it registers again after a restart (so a
     * misspelt topic keeps the job restarting, with that cause in its status, rather than ending it).
     */
    private static boolean isTransientClientCode(int code) {
        return code == ClientErrorCode.CONNECT_BROKER_EXCEPTION || code == ClientErrorCode.ACCESS_BROKER_TIMEOUT
                || code == ClientErrorCode.BROKER_NOT_EXIST_EXCEPTION
                || code == ClientErrorCode.NOT_FOUND_TOPIC_EXCEPTION
                || code == ClientErrorCode.REQUEST_TIMEOUT_EXCEPTION || code == ResponseCode.TOPIC_NOT_EXIST;
    }
}
