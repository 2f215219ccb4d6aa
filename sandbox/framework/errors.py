"""Errors raised when a graph runs -- mirrors TensorFlow's `tf.errors` (framework/errors_impl.py).

Every runtime failure is an OpError that names the op (its NodeDef name) where it happened,
carries TF's canonical error code, and says in plain words what to do about it.
"""

__all__ = ["OpError", "CancelledError", "UnknownError", "InvalidArgumentError",
           "DeadlineExceededError", "NotFoundError", "AlreadyExistsError",
           "PermissionDeniedError", "UnauthenticatedError", "ResourceExhaustedError",
           "FailedPreconditionError", "AbortedError", "OutOfRangeError", "UnimplementedError",
           "InternalError", "UnavailableError", "DataLossError", "error_code_name",
           "exception_type_from_error_code", "error_code_from_exception_type",
           "WAIT_LOG_EVERY"]

# A wait is never silent: whatever waits long (a _Recv for its tensor, a queue's dequeue, a
# call for its reply, a session for its tasks) says every WAIT_LOG_EVERY seconds what it waits
# for, and how long it has waited.
WAIT_LOG_EVERY = 10.0

OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND = 0, 1, 2, 3, 4, 5
ALREADY_EXISTS, PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION = 6, 7, 8, 9
ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS = 10, 11, 12, 13, 14, 15
UNAUTHENTICATED = 16


class OpError(Exception):
    """A failure while running an op. `node_def` names the op; `op` is the Operation when known."""

    error_code = UNKNOWN

    def __init__(self, node_def, op, message, error_code=None, *args):
        super().__init__(message)
        self._node_def = node_def
        self._op = op
        self._message = message
        if error_code is not None:
            self.error_code = error_code

    @property
    def message(self):
        return self._message

    @property
    def op(self):
        return self._op

    @property
    def node_def(self):
        return self._node_def

    def __str__(self):
        if self._node_def and f"[[node {self._node_def_name()}" not in self._message:
            return f"{self._message}\n\t [[node {self._node_def_name()}]]"
        return self._message

    def _node_def_name(self):
        nd = self._node_def
        return nd.get("name") if isinstance(nd, dict) else getattr(nd, "name", nd)

    def __reduce__(self):
        return type(self), (self._node_def, None, self._message)


def _make(name, code, doc):
    def __init__(self, node_def, op, message, *args):
        OpError.__init__(self, node_def, op, message, code)
    return type(name, (OpError,), {"__init__": __init__, "error_code": code, "__doc__": doc})


CancelledError = _make("CancelledError", CANCELLED, "The operation or step was cancelled.")
UnknownError = _make("UnknownError", UNKNOWN, "An unknown error occurred.")
InvalidArgumentError = _make("InvalidArgumentError", INVALID_ARGUMENT,
                             "An op received an invalid argument (bad shape, dtype or value).")
DeadlineExceededError = _make("DeadlineExceededError", DEADLINE_EXCEEDED,
                              "A deadline expired before the operation could complete.")
NotFoundError = _make("NotFoundError", NOT_FOUND, "A requested entity (file, resource) was not found.")
AlreadyExistsError = _make("AlreadyExistsError", ALREADY_EXISTS, "An entity already exists.")
PermissionDeniedError = _make("PermissionDeniedError", PERMISSION_DENIED, "The caller may not do this.")
UnauthenticatedError = _make("UnauthenticatedError", UNAUTHENTICATED,
                             "The request does not have valid credentials (cluster secret).")
ResourceExhaustedError = _make("ResourceExhaustedError", RESOURCE_EXHAUSTED,
                               "Some resource (memory, frame size, queue space) is exhausted.")
FailedPreconditionError = _make("FailedPreconditionError", FAILED_PRECONDITION,
                                "The system is not in a state to run the op (e.g. an uninitialized variable).")
AbortedError = _make("AbortedError", ABORTED, "The operation was aborted (e.g. a task restarted).")
OutOfRangeError = _make("OutOfRangeError", OUT_OF_RANGE,
                        "An operation iterated past the valid range (e.g. a closed, empty queue).")
UnimplementedError = _make("UnimplementedError", UNIMPLEMENTED, "The operation is not implemented here.")
InternalError = _make("InternalError", INTERNAL, "An internal invariant of the sandbox broke.")
UnavailableError = _make("UnavailableError", UNAVAILABLE, "A task or service is currently unavailable.")
DataLossError = _make("DataLossError", DATA_LOSS, "Unrecoverable data loss or corruption.")

_BY_CODE = {cls.error_code: cls for cls in (
    CancelledError, UnknownError, InvalidArgumentError, DeadlineExceededError, NotFoundError,
    AlreadyExistsError, PermissionDeniedError, UnauthenticatedError, ResourceExhaustedError,
    FailedPreconditionError, AbortedError, OutOfRangeError, UnimplementedError, InternalError,
    UnavailableError, DataLossError)}
_NAMES = {cls.error_code: cls.__name__ for cls in _BY_CODE.values()}


def exception_type_from_error_code(error_code):
    return _BY_CODE.get(error_code, UnknownError)


def error_code_from_exception_type(cls):
    """InvalidArgumentError -> 3: the canonical code of an OpError class. As TensorFlow's, a
    class that is not one of them warns and gives back an UnknownError (an instance)."""
    for code, known in _BY_CODE.items():
        if cls is known:
            return code
    import warnings
    warnings.warn("Unknown class exception")
    return UnknownError(None, None, "Unknown class exception", None)


def error_code_name(error_code):
    return _NAMES.get(error_code, "UNKNOWN")
