/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The field numbers and values of Perfetto's protobuf that the --perfetto
 * encoder (src/output/perfetto-pb.c) writes (perfetto_trace.proto, in
 * ../shared/perfetto/protos).
 */
#ifndef EATRACE_OUTPUT_PERFETTO_PB_FIELDS_H
#define EATRACE_OUTPUT_PERFETTO_PB_FIELDS_H

/* Field numbers and values (perfetto_trace.proto). */
enum {
	TRACE_PACKET = 1,
	/* TracePacket */
	TP_CLOCK_SNAPSHOT = 6,
	TP_TIMESTAMP = 8,
	TP_SEQUENCE_ID = 10,
	TP_TRACK_EVENT = 11,
	TP_INTERNED_DATA = 12,
	TP_SEQUENCE_FLAGS = 13,
	TP_TIMESTAMP_CLOCK_ID = 58,
	TP_DEFAULTS = 59,
	TP_TRACK_DESCRIPTOR = 60,
	SEQ_INCREMENTAL_STATE_CLEARED = 1,
	SEQ_NEEDS_INCREMENTAL_STATE = 2,
	/* ClockSnapshot, ClockSnapshot.Clock */
	CS_CLOCKS = 1,
	CS_PRIMARY_TRACE_CLOCK = 2,
	CLK_ID = 1,
	CLK_TIMESTAMP = 2,
	CLK_IS_INCREMENTAL = 3,
	CLOCK_BOOTTIME = 6,
	CLOCK_INCREMENTAL = 64, /* sequence-scoped, as the SDK's */
	/* TracePacketDefaults, TrackEventDefaults */
	DEF_TIMESTAMP_CLOCK_ID = 58,
	DEF_TRACK_EVENT = 11,
	TED_TRACK_UUID = 11,
	TED_EXTRA_COUNTER_UUIDS = 31,
	/* TrackDescriptor */
	TD_UUID = 1,
	TD_NAME = 2,
	TD_PROCESS = 3,
	TD_PARENT_UUID = 5,
	TD_COUNTER = 8,
	TD_CHILD_ORDERING = 11,
	TD_SIBLING_ORDER_RANK = 12,
	TD_ORDER_EXPLICIT = 3,
	/* ProcessDescriptor, CounterDescriptor */
	PD_PID = 1,
	PD_PROCESS_NAME = 6,
	CD_UNIT_NAME = 6,
	/* TrackEvent */
	TE_TYPE = 9,
	TE_NAME_IID = 10,
	TE_TRACK_UUID = 11,
	TE_EXTRA_COUNTER_VALUES = 12,
	TE_COUNTER_VALUE = 30,
	TE_DOUBLE_COUNTER_VALUE = 44,
	TYPE_SLICE_BEGIN = 1,
	TYPE_SLICE_END = 2,
	TYPE_COUNTER = 4,
	/* InternedData, EventName */
	ID_EVENT_NAMES = 2,
	EN_IID = 1,
	EN_NAME = 2,
};

#endif
