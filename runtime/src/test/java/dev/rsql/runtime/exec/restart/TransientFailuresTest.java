package dev.rsql.runtime.exec.restart;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.exec.CheckpointException;
import dev.rsql.runtime.graph.FunctionException;
import dev.rsql.runtime.state.StateException;
import org.apache.rocketmq.client.common.ClientErrorCode;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.remoting.exception.RemotingConnectException;
import org.apache.rocketmq.remoting.exception.RemotingTimeoutException;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.file.AccessDeniedException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTransactionRollbackException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransientFailuresTest {

    @Test
    void anUnreachableOrSlowBrokerIsTransientWhereverItShows() {
        assertTrue(TransientFailures.isTransient(new RemotingConnectException("127.0.0.1:10911")));
        assertTrue(TransientFailures.isTransient(new CheckpointException("job j task t: commit",
                new RemotingTimeoutException("127.0.0.1:10911", 3000))));
        assertTrue(TransientFailures.isTransient(new IllegalStateException("cannot start a task",
                new MQClientException("send failed", new RemotingConnectException("127.0.0.1:10911")))));
        assertTrue(TransientFailures.isTransient(new MQClientException(ClientErrorCode.NOT_FOUND_TOPIC_EXCEPTION,
                "No route info of this topic")));
        assertTrue(TransientFailures.isTransient(new MQBrokerException(ResponseCode.SYSTEM_BUSY, "busy")));
        assertTrue(TransientFailures.isTransient(new IllegalStateException("table t: writing failed",
                new MQClientException("The broker[rsql-local-broker] not exist", null))), "a broker restarting");
        assertTrue(TransientFailures.isTransient(new IllegalStateException("table t: topic 'x' is not available",
                new MQClientException("Can not find Message Queue for this topic, x",
                        new MQClientException(ResponseCode.TOPIC_NOT_EXIST, "No topic route info in name server")))),
                "the name server knows no topic until the restarted broker registers again");
        assertTrue(TransientFailures.isTransient(new CompletionException(new TimeoutException("flush"))));
        assertTrue(TransientFailures.isTransient(new IOException("state queue", new ConnectException("refused"))));
        assertTrue(TransientFailures.isTransient(new IllegalStateException("table t (connector kafka): commit",
                new org.apache.kafka.common.errors.TimeoutException("Timeout of 60000ms expired"))), "Kafka");
        assertFalse(TransientFailures.isTransient(new org.apache.kafka.common.errors.AuthenticationException("bad")),
                "Kafka login refused");
    }

    @Test
    void recordConfigurationFunctionAndStateFailuresEndTheJob() {
        assertFalse(TransientFailures.isTransient(new ConfigException("option 'x'")));
        assertFalse(TransientFailures.isTransient(new FunctionException("MY_UDF", new Object[]{1},
                new SocketTimeoutException("its own HTTP call"))), "a UDF failure, whatever its cause");
        assertFalse(TransientFailures.isTransient(new StateException("writing state failed",
                new IOException("No space left on device"))));
        assertFalse(TransientFailures.isTransient(new CheckpointException("job j: checkpoint 3",
                new AccessDeniedException("state/j/checkpoints/chk-3"))));
        assertFalse(TransientFailures.isTransient(new MQBrokerException(ResponseCode.MESSAGE_ILLEGAL, "too big")));
        assertFalse(TransientFailures.isTransient(new MQClientException("The producer group has been created"
                + " before", null)));
        assertFalse(TransientFailures.isTransient(new OutOfMemoryError()));
        assertFalse(TransientFailures.isTransient(new IllegalArgumentException("bug")));
    }

    @Test
    void aCyclicCauseChainEnds() {
        Exception a = new IllegalStateException("a");
        Exception b = new IllegalStateException("b", a);
        a.initCause(b);
        assertFalse(TransientFailures.isTransient(a));
    }

    /** Database errors: a lost connection, a deadlock or a lock wait timeout are transient; SQL mistakes are not. */
    @Test
    void databaseErrors() {
        assertTrue(TransientFailures.isTransient(new RuntimeException("sink failed",
                new SQLNonTransientConnectionException("(conn=18) Socket error", "08000", 0))));
        assertTrue(TransientFailures.isTransient(new SQLTransactionRollbackException("Deadlock found", "40001", 1213)));
        assertTrue(TransientFailures.isTransient(new SQLException("Lock wait timeout exceeded", "HY000", 1205)));
        assertTrue(TransientFailures.isTransient(new SQLException("Connection was killed", "70100", 1927)));
        assertFalse(TransientFailures.isTransient(new SQLSyntaxErrorException("Table 'x' doesn't exist", "42S02",
                1146)));
        assertFalse(TransientFailures.isTransient(new SQLException("Access denied for user", "28000", 1045)));
        assertFalse(TransientFailures.isTransient(new ConfigException("bad url",
                new SQLNonTransientConnectionException("refused", "08000", 0))));
    }
}
