"""What the LinearOperator classes share -- mirrors TF's python/ops/linalg/linear_operator_util.py
(the asserts, broadcasting of batch dimensions, solves that broadcast) and
property_hint_util.py (how the hints of two operators combine into the hints of their
product).

Broadcasting: an operator of batch shape [2, 1] times a matrix of batch shape [3] gives batch
shape [2, 3], as tf.matmul does. The solve ops (MatrixSolve, MatrixTriangularSolve) want their
two inputs' batch dimensions equal, so the *_with_broadcast solves broadcast them first.
"""
from ...framework import dtypes as _dtypes
from ...framework.graph import control_dependencies, name_scope
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import Dimension, as_shape
from .. import array_ops, basic_math_ops, check_ops, control_flow_ops
from ..array_ops import matrix_transpose
from ..complex_ops import conj, imag
from ..linalg_ops import matrix_solve, matrix_triangular_solve
from ..manip_ops import broadcast_dynamic_shape, broadcast_static_shape, broadcast_to
from ..slicing_ops import concat

__all__ = []


def adjoint(matrix):
    """The conjugate transpose of a [batch] matrix (the transpose of a real one). (Here, not
    tf.linalg.adjoint: the sandbox's matrix_transpose ignores conjugate=True.)"""
    matrix = convert_to_tensor(matrix, name="matrix")
    transposed = matrix_transpose(matrix)
    return conj(transposed) if matrix.dtype.is_complex else transposed


# -- static checks ----------------------------------------------------------------------------

def assert_dims_compatible(a, b):
    """TF's Dimension.assert_is_compatible_with: ValueError unless `a` and `b` (Dimensions or
    ints or None) could be the same size."""
    a, b = Dimension(a), Dimension(b)
    if not a.is_compatible_with(b):
        raise ValueError(f"Dimensions {a} and {b} are not compatible")


def check_dtype(arg, dtype):
    """TypeError unless the tensor `arg` has `dtype` (TF's LinearOperator._check_input_dtype)."""
    if arg.dtype.base_dtype != dtype:
        raise TypeError(f"Expected argument to have dtype {dtype}.  Found: {arg.dtype} in "
                        f"tensor {arg}")


def assert_is_batch_matrix(tensor):
    """ValueError when `tensor` is known to have fewer than two dimensions."""
    sh = tensor.shape
    if sh.ndims is not None and sh.ndims < 2:
        raise ValueError(f"Expected [batch] matrix to have at least two dimensions.  Found: "
                         f"{tensor}")


def shape_tensor(shape, name=None):
    """`shape` as a tensor: int32 for an empty list (which would be float32 otherwise)."""
    dtype = _dtypes.int32 if isinstance(shape, (tuple, list)) and not shape else None
    return convert_to_tensor(shape, dtype=dtype, name=name)


def with_dependencies(checks, tensor, name="control_dependency"):
    """`tensor` through an Identity that first runs `checks` (TF's
    control_flow_ops.with_dependencies)."""
    with control_dependencies(checks):
        return control_flow_ops.identity(tensor, name=name)


# -- run-time asserts ---------------------------------------------------------------------------

def assert_no_entries_with_modulus_zero(x, message=None,
                                        name="assert_no_entries_with_modulus_zero"):
    """An op that fails (InvalidArgumentError) when some entry of `x` has |x| == 0."""
    with name_scope(name, values=[x]):
        x = convert_to_tensor(x, name="x")
        zero = convert_to_tensor(0, dtype=x.dtype.base_dtype.real_dtype)
        return check_ops.assert_less(zero, basic_math_ops.abs(x), message=message)


def assert_zero_imag_part(x, message=None, name="assert_zero_imag_part"):
    """An op that fails when some entry of the complex `x` has a non-zero imaginary part (a
    no-op for real `x`)."""
    with name_scope(name, values=[x]):
        x = convert_to_tensor(x, name="x")
        dtype = x.dtype.base_dtype
        if dtype.is_floating:
            return control_flow_ops.no_op()
        zero = convert_to_tensor(0, dtype=dtype.real_dtype)
        return check_ops.assert_equal(zero, imag(x), message=message)


def assert_compatible_matrix_dimensions(operator, x):
    """An op that fails unless x.shape[-2] is the operator's domain dimension."""
    return check_ops.assert_equal(
        array_ops.shape(x)[-2], operator.domain_dimension_tensor(),
        message="Dimensions are not compatible.  shape[-2] of argument to be the same as this "
                "operator")


# -- broadcasting batch dimensions --------------------------------------------------------------

def broadcast_matrix_batch_dims(batch_matrices, name=None):
    """The [batch] matrices with their batch dimensions (all but the last two) broadcast
    against each other: shapes [2, 1, 4, 4] and [3, 5, 5] become [2, 3, 4, 4], [2, 3, 5, 5]."""
    with name_scope(name or "broadcast_matrix_batch_dims", values=batch_matrices):
        check_ops.assert_proper_iterable(batch_matrices)
        batch_matrices = [convert_to_tensor(m) for m in batch_matrices]
        for m in batch_matrices:
            assert_is_batch_matrix(m)
        if len(batch_matrices) < 2:
            return batch_matrices
        bcast = batch_matrices[0].shape[:-2]
        for m in batch_matrices[1:]:
            bcast = broadcast_static_shape(bcast, m.shape[:-2])
        if bcast.is_fully_defined():
            out = []
            for m in batch_matrices:
                if m.shape[:-2] != bcast:
                    m = broadcast_to(m, concat([bcast.as_list(), array_ops.shape(m)[-2:]], 0))
                out.append(m)
            return out
        dynamic = array_ops.shape(batch_matrices[0])[:-2]
        for m in batch_matrices[1:]:
            dynamic = broadcast_dynamic_shape(dynamic, array_ops.shape(m)[:-2])
        return [broadcast_to(m, concat([dynamic, array_ops.shape(m)[-2:]], 0))
                for m in batch_matrices]


def matrix_solve_with_broadcast(matrix, rhs, adjoint=False, name=None):
    """tf.matrix_solve with the batch dimensions of `matrix` and `rhs` broadcast first."""
    with name_scope(name, "MatrixSolveWithBroadcast", [matrix, rhs]):
        matrix = convert_to_tensor(matrix, name="matrix")
        rhs = convert_to_tensor(rhs, name="rhs", dtype=matrix.dtype)
        matrix, rhs = broadcast_matrix_batch_dims([matrix, rhs])
        return matrix_solve(matrix, rhs, adjoint=adjoint)


def matrix_triangular_solve_with_broadcast(matrix, rhs, lower=True, adjoint=False,
                                           name=None):
    """tf.matrix_triangular_solve with the batch dimensions broadcast first."""
    with name_scope(name, "MatrixTriangularSolve", [matrix, rhs]):
        matrix = convert_to_tensor(matrix, name="matrix")
        rhs = convert_to_tensor(rhs, name="rhs", dtype=matrix.dtype)
        matrix, rhs = broadcast_matrix_batch_dims([matrix, rhs])
        return matrix_triangular_solve(matrix, rhs, lower=lower, adjoint=adjoint)


def cholesky_solve_with_broadcast(chol, rhs, name=None):
    """tf.cholesky_solve with the batch dimensions broadcast first."""
    with name_scope(name, "CholeskySolveWithBroadcast", [chol, rhs]):
        chol, rhs = broadcast_matrix_batch_dims([chol, rhs])
        y = matrix_triangular_solve(chol, rhs, lower=True, adjoint=False)
        return matrix_triangular_solve(chol, y, lower=True, adjoint=True)


def broadcast_batch_shape(shapes):
    """The static broadcast of a list of batch TensorShapes."""
    out = as_shape(shapes[0])
    for s in shapes[1:]:
        out = broadcast_static_shape(out, s)
    return out


# -- hints ----------------------------------------------------------------------------------

def is_adjoint_pair(x, y):
    """True iff the operators x and y are adjoints of each other (by identity, not value)."""
    if x is y:
        if x.is_self_adjoint is False:
            return False
        if x.is_self_adjoint:
            return True
    return x.H is y or y.H is x


def is_aat_form(operators):
    """True if `operators` (a composition) has the form A @ B @ ... @ B^H @ A^H."""
    operators = list(operators)
    if not operators:
        raise ValueError("AAT form is undefined for empty operators")
    if len(operators) % 2:
        return False
    return all(is_adjoint_pair(operators[i], operators[-1 - i])
               for i in range(len(operators) // 2))


def use_operator_or_provided_hint_unless_contradicting(operator, hint_attr_name,
                                                       provided_hint_value, message):
    """The hint of an operator made from `operator` (its adjoint, its inverse) where the two
    must agree: ValueError(message) when they contradict, else whichever is set."""
    op_hint = getattr(operator, hint_attr_name)
    if op_hint is False and provided_hint_value:
        raise ValueError(message)
    if op_hint and provided_hint_value is False:
        raise ValueError(message)
    if op_hint or provided_hint_value:
        return True
    if op_hint is False or provided_hint_value is False:
        return False
    return None


def combined_commuting_self_adjoint_hint(operator_a, operator_b):
    """is_self_adjoint of a @ b for commuting a and b."""
    if operator_a.is_self_adjoint and operator_b.is_self_adjoint:
        return True
    if ((operator_a.is_self_adjoint is True and operator_b.is_self_adjoint is False) or
            (operator_a.is_self_adjoint is False and operator_b.is_self_adjoint is True)):
        return False
    return None


def combined_is_square(operator_a, operator_b):
    """is_square of a @ b."""
    if operator_a.is_square and operator_b.is_square:
        return True
    if operator_a.is_square is False and operator_b.is_square is False:
        m = operator_a.range_dimension
        n = operator_b.domain_dimension
        if m.value is not None and n.value is not None:
            return m == n
    if (operator_a.is_square != operator_b.is_square and operator_a.is_square is not None
            and operator_b.is_square is not None):
        return False
    return None


def combined_commuting_positive_definite_hint(operator_a, operator_b):
    """is_positive_definite of a @ b for commuting a and b."""
    if (operator_a.is_positive_definite is True and operator_a.is_self_adjoint is True and
            operator_b.is_positive_definite is True and operator_b.is_self_adjoint is True):
        return True
    return None


def combined_non_singular_hint(operator_a, operator_b):
    """is_non_singular of a @ b."""
    if operator_a.is_non_singular is False or operator_b.is_non_singular is False:
        return False
    return operator_a.is_non_singular and operator_b.is_non_singular
