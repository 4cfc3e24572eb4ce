"""Connect Four's options: the board's size and the length of a winning line (C6)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator


class ConnectFourOptions(BaseModel):
    """Variants combine freely, as long as a line fits on the board (C6.1)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    columns: int = Field(
        default=7, ge=4, le=10, description="C6.1 the number of columns (C1.1): 4 to 10"
    )
    rows: int = Field(default=6, ge=4, le=10, description="C6.1 the number of rows (C1.1): 4 to 10")
    connect: int = Field(
        default=4, ge=3, le=6, description="C6.1 how many discs in a line win (C3.1): 3 to 6"
    )

    @field_validator("connect")
    @classmethod
    def _fits(cls, value: int, info: ValidationInfo) -> int:
        longest = max(info.data.get("columns", 7), info.data.get("rows", 6))
        if value > longest:
            raise ValueError(f"a line of {value} does not fit on this board (C6.1)")
        return value
