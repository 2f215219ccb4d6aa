"""Static shapes -- mirrors TensorFlow's `TensorShape` and `Dimension` (framework/tensor_shape.py).

A static shape is what the graph knows before running: `(?, 784)` means "any number of rows,
784 columns". `None` stands for an unknown dimension; a shape of unknown rank has `dims is None`.
"""

__all__ = ["TensorShape", "Dimension", "as_shape", "unknown_shape", "dimension_value",
           "dimension_at_index"]


class Dimension:
    """One dimension of a static shape; `.value` is an int or None (unknown)."""

    def __init__(self, value):
        if isinstance(value, Dimension):
            value = value.value
        if value is not None:
            value = int(value)
            if value < 0:
                raise ValueError(f"Dimension {value} must be >= 0")
        self.value = value

    def __int__(self):
        if self.value is None:
            raise TypeError("Cannot convert an unknown Dimension (?) to an int")
        return self.value

    __index__ = __int__

    def __eq__(self, other):
        other = other.value if isinstance(other, Dimension) else other
        if self.value is None or other is None:
            return None
        return self.value == other

    def __ne__(self, other):
        eq = self.__eq__(other)
        return None if eq is None else not eq

    def __hash__(self):
        return hash(self.value)

    def __repr__(self):
        return f"Dimension({self.value})"

    def __str__(self):
        return "?" if self.value is None else str(self.value)

    def _op(self, other, fn):
        other = other.value if isinstance(other, Dimension) else other
        return Dimension(None if self.value is None or other is None else fn(self.value, other))

    def __add__(self, other):
        return self._op(other, lambda a, b: a + b)

    def __mul__(self, other):
        return self._op(other, lambda a, b: a * b)

    def __floordiv__(self, other):
        return self._op(other, lambda a, b: a // b)

    __radd__, __rmul__ = __add__, __mul__

    def is_compatible_with(self, other):
        other = Dimension(other)
        return self.value is None or other.value is None or self.value == other.value

    def merge_with(self, other):
        other = Dimension(other)
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {other} are not compatible")
        return Dimension(self.value if self.value is not None else other.value)


class TensorShape:
    """The static shape of a tensor: a list of Dimensions, or unknown rank."""

    def __init__(self, dims):
        if dims is None:
            self._dims = None
        elif isinstance(dims, TensorShape):
            self._dims = None if dims._dims is None else list(dims._dims)
        elif isinstance(dims, (int, Dimension)) and not isinstance(dims, bool):
            self._dims = [Dimension(dims)]
        else:
            self._dims = [Dimension(d) for d in dims]

    # -- queries ----------------------------------------------------------
    @property
    def dims(self):
        return None if self._dims is None else list(self._dims)

    @property
    def ndims(self):
        return None if self._dims is None else len(self._dims)

    rank = ndims

    def as_list(self):
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return [d.value for d in self._dims]

    def as_tuple(self):
        """Plain tuple of ints/None (None for unknown rank); handy inside the sandbox."""
        return None if self._dims is None else tuple(d.value for d in self._dims)

    def is_fully_defined(self):
        return self._dims is not None and all(d.value is not None for d in self._dims)

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d.value
        return n

    def is_compatible_with(self, other):
        if type(other) is tuple and self._dims is not None and \
                len(other) == len(self._dims):      # e.g. an array's shape: no objects to build
            for d, n in zip(self._dims, other):
                if type(n) is not int:
                    break                           # (a Dimension, None, ...: the long way)
                if d.value is not None and d.value != n:
                    return False
            else:
                return True
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        return len(self._dims) == len(other._dims) and all(
            a.is_compatible_with(b) for a, b in zip(self._dims, other._dims))

    def merge_with(self, other):
        other = as_shape(other)
        if self._dims is None:
            return TensorShape(other)
        if other._dims is None:
            return TensorShape(self)
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape([a.merge_with(b) for a, b in zip(self._dims, other._dims)])

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {as_shape(other)} are incompatible")

    def assert_has_rank(self, rank):
        if self._dims is not None and len(self._dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")

    def with_rank(self, rank):
        try:
            return self.merge_with(unknown_shape(rank))
        except ValueError:
            raise ValueError(f"Shape {self} must have rank {rank}") from None

    def with_rank_at_least(self, rank):
        if self._dims is not None and len(self._dims) < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank):
        if self._dims is not None and len(self._dims) > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def assert_same_rank(self, other):
        other = as_shape(other)
        if self._dims is not None and other._dims is not None and \
                len(self._dims) != len(other._dims):
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def assert_is_fully_defined(self):
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def most_specific_compatible_shape(self, other):
        """The most specific shape that both this one and `other` fit: unknown rank if the
        ranks differ, else each dimension kept where both agree, unknown where not."""
        other = as_shape(other)
        if self._dims is None or other._dims is None or len(self._dims) != len(other._dims):
            return TensorShape(None)
        return TensorShape([a.value if a.value == b.value else None
                            for a, b in zip(self._dims, other._dims)])

    def as_proto(self):
        """The TensorShapeProto of this shape (-1 for an unknown dimension)."""
        from tensorboardX.proto import tensor_shape_pb2
        if self._dims is None:
            return tensor_shape_pb2.TensorShapeProto(unknown_rank=True)
        return tensor_shape_pb2.TensorShapeProto(dim=[
            tensor_shape_pb2.TensorShapeProto.Dim(size=-1 if d.value is None else d.value)
            for d in self._dims])

    def concatenate(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    # -- python protocol --------------------------------------------------
    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of a shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
        if self._dims is None:
            return TensorShape(None) if isinstance(key, slice) else Dimension(None)
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __bool__(self):
        return self._dims is not None

    def __eq__(self, other):
        try:
            other = as_shape(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self.as_tuple() == other.as_tuple()

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        return hash(self.as_tuple())

    def __repr__(self):
        # TF 1.x's (v1 TensorShape) form: the dims are Dimension objects, so they print as
        # TensorShape([Dimension(None), Dimension(784)]) -- TF 2's TensorShape([None, 784])
        # is for v2 TensorShape behaviour, which the sandbox does not have.
        if self._dims is None:
            return "TensorShape(None)"
        return f"TensorShape({self._dims!r})"

    def __str__(self):
        if self._dims is None:
            return "<unknown>"
        inner = ", ".join(str(d) for d in self._dims)
        return f"({inner},)" if len(self._dims) == 1 else f"({inner})"


def as_shape(shape):
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def unknown_shape(rank=None):
    return TensorShape(None if rank is None else [None] * rank)


def dimension_value(dimension):
    """tf.dimension_value: the int (or None) of a Dimension; anything else as it is."""
    if isinstance(dimension, Dimension):
        return dimension.value
    return dimension


def dimension_at_index(shape, index):
    """tf.dimension_at_index: the Dimension at `index` of `shape`; Dimension(None) when the
    rank is unknown (IndexError past the end of a known rank, as TF)."""
    shape = as_shape(shape)
    if shape.ndims is None:
        return Dimension(None)
    return shape.dims[index]
