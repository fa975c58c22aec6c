package io.smoothscale.kafka;

import java.util.List;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ProcessId;

/**
 * A state message and the orders it was written in: client {@code i} of the message is {@code clients.get(i)},
 * task {@code j} is {@code tasks.get(j)}.
 *
 * @param bytes the state message
 * @param clients the processes, in {@link ProcessId} order
 * @param tasks the tasks, in {@link TaskId} order
 * @param positions task id → index in {@code tasks}
 * @param previousOwner for each task, the client index of its previous active, or −1
 */
record EncodedState(byte[] bytes, List<ProcessId> clients, List<TaskId> tasks, TaskPositions positions,
                    int[] previousOwner) {
}
